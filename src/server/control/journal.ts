/**
 * The request journal: the last N requests to the interface, for a client's
 * own tests to assert on ("my client sent exactly one POST"). A ring buffer,
 * so it costs a fixed amount of memory however long the server runs.
 */
export interface JournalEntry {
  /** When the request arrived, ISO 8601 by the server clock. */
  readonly at: string;
  readonly method: string;
  /** The request target as sent, query included. */
  readonly path: string;
  readonly status: number;
  readonly latencyMs: number;
  /** The Error body's `code`, for error answers. */
  readonly code?: string;
  /** The fault injected into this request, if any. */
  readonly fault?: string;
}

export class Journal {
  private entries: (JournalEntry | undefined)[];
  private next = 0;
  private count = 0;

  constructor(readonly capacity: number) {
    this.entries = new Array(capacity);
  }

  add(entry: JournalEntry): void {
    if (this.capacity === 0) return;
    this.entries[this.next] = entry;
    this.next = (this.next + 1) % this.capacity;
    this.count = Math.min(this.count + 1, this.capacity);
  }

  /** The latest `limit` entries, oldest first. */
  latest(limit = this.capacity): JournalEntry[] {
    const n = Math.min(limit, this.count);
    const out: JournalEntry[] = [];
    for (let i = n; i > 0; i--) out.push(this.entries[(this.next - i + this.capacity) % this.capacity] as JournalEntry);
    return out;
  }

  get size(): number {
    return this.count;
  }

  clear(): void {
    this.entries = new Array(this.capacity);
    this.next = 0;
    this.count = 0;
  }
}
