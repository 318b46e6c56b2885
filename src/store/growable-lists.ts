/**
 * Growable typed arrays: the store's indexes (where each pet ends, the pets of
 * each status, the ids kept when they are not positions), 4 or 8 bytes an entry
 * instead of a JS value each. `length` may be set lower to forget the tail.
 */
/** A growable array of 32-bit unsigned integers. */
export class UintList {
  values = new Uint32Array(16);
  length = 0;

  push(value: number): void {
    if (this.length === this.values.length) {
      const grown = new Uint32Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = value;
  }
}

/** A growable array of int64s. */
export class BigIntList {
  values = new BigInt64Array(16);
  length = 0;

  push(value: bigint): void {
    if (this.length === this.values.length) {
      const grown = new BigInt64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = value;
  }
}
