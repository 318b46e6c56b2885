/**
 * Faults injected per operation through the control API, so a client can be
 * tried against a slow or failing backend: added latency, an error status for
 * a fraction of requests, a dropped connection for a fraction of requests.
 * Every response a fault touched says so in its `Petstore-Fault` header, so
 * no one mistakes an injected failure for a bug.
 */
export interface Fault {
  /** Milliseconds added before the request is handled. */
  readonly latencyMs: number;
  /** The HTTP status answered instead, for `errorRate` of the requests (4xx or 5xx). */
  readonly status?: number;
  /** Fraction of requests (0..1) answered with `status`. */
  readonly errorRate: number;
  /** Fraction of requests (0..1) whose connection is dropped without an answer. */
  readonly dropRate: number;
}

export type FaultDecision =
  | { kind: 'none' }
  | { kind: 'delay'; latencyMs: number; header: string }
  | { kind: 'error'; latencyMs: number; status: number; header: string }
  | { kind: 'drop'; latencyMs: number; header: string };

export const FAULT_HEADER = 'petstore-fault';

export class FaultTable {
  private readonly faults = new Map<string, Fault>();

  constructor(private readonly random: () => number = Math.random) {}

  set(operationId: string, fault: Fault): void {
    this.faults.set(operationId, fault);
  }

  delete(operationId: string): boolean {
    return this.faults.delete(operationId);
  }

  clear(): void {
    this.faults.clear();
  }

  /** Every fault at once: another instance's table, shared through the store. */
  replace(entries: Record<string, Fault>): void {
    this.faults.clear();
    for (const [operationId, fault] of Object.entries(entries)) this.faults.set(operationId, fault);
  }

  entries(): Record<string, Fault> {
    return Object.fromEntries(this.faults);
  }

  get active(): boolean {
    return this.faults.size > 0;
  }

  /** What happens to this request of `operationId`. */
  decide(operationId: string): FaultDecision {
    const fault = this.faults.get(operationId);
    if (!fault) return { kind: 'none' };
    const latency = fault.latencyMs > 0 ? `latency=${fault.latencyMs}ms` : '';
    const join = (...parts: string[]) => parts.filter(Boolean).join('; ');
    if (fault.dropRate > 0 && this.random() < fault.dropRate) return { kind: 'drop', latencyMs: fault.latencyMs, header: join(latency, 'drop') };
    if (fault.status !== undefined && fault.errorRate > 0 && this.random() < fault.errorRate) {
      return { kind: 'error', latencyMs: fault.latencyMs, status: fault.status, header: join(latency, `status=${fault.status}`) };
    }
    if (fault.latencyMs > 0) return { kind: 'delay', latencyMs: fault.latencyMs, header: latency };
    return { kind: 'none' };
  }
}
