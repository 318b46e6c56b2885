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

/**
 * What the server records of a request as it answers: the fields of a
 * JournalEntry, with the arrival as a number. Formatting the ISO date costs
 * more than the rest of the record, so it is done when the journal is read,
 * not on every request.
 */
export interface JournalRecord {
  /** When the request arrived, in milliseconds since the epoch by the server clock. */
  readonly arrivedAt: number;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly latencyMs: number;
  readonly code: string | undefined;
  readonly fault: string | undefined;
}

export function journalEntry(r: JournalRecord): JournalEntry {
  const entry: { -readonly [K in keyof JournalEntry]: JournalEntry[K] } = {
    at: new Date(r.arrivedAt).toISOString(),
    method: r.method,
    path: r.path,
    status: r.status,
    latencyMs: r.latencyMs,
  };
  if (r.code !== undefined) entry.code = r.code;
  if (r.fault !== undefined) entry.fault = r.fault;
  return entry;
}

export class Journal {
  private records: (JournalRecord | undefined)[];
  private next = 0;
  private count = 0;

  constructor(readonly capacity: number) {
    this.records = new Array(capacity);
  }

  add(record: JournalRecord): void {
    if (this.capacity === 0) return;
    this.records[this.next] = record;
    this.next = this.next + 1 === this.capacity ? 0 : this.next + 1;
    if (this.count < this.capacity) this.count++;
  }

  /** The latest `limit` entries, oldest first. */
  latest(limit = this.capacity): JournalEntry[] {
    const n = Math.min(limit, this.count);
    const out: JournalEntry[] = [];
    for (let i = n; i > 0; i--) out.push(journalEntry(this.records[(this.next - i + this.capacity) % this.capacity] as JournalRecord));
    return out;
  }

  get size(): number {
    return this.count;
  }

  clear(): void {
    this.records = new Array(this.capacity);
    this.next = 0;
    this.count = 0;
  }
}
