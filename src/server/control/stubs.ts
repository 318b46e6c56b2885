/**
 * Stubbed answers, WireMock-style: the next `times` requests to an operation
 * are answered with a given status, body and headers instead of the store's.
 * A stub is checked against the spec's declared responses when it is set, so
 * that a client test cannot pass against an answer the real service could
 * never give; `invalid: true` says the test wants such an answer on purpose.
 *
 * A stub answers only a request the interface accepts (after authentication,
 * the sunset, the parameters and the body), so the client's mistakes are still
 * refused and found. Stubs of one operation are used first in, first out.
 * Each instance keeps its own: they are not shared through a shared store.
 */
import { validateHeaderName, validateHeaderValue } from 'node:http';
import type { OperationDescriptor } from '../../../spec/operations.js';
import { parseJson, stringifyJson, type JsonValue } from '../../../spec/json/index.js';
import { isObject } from '../../../spec/json/is-object.js';
import { compileSchema } from '../../../spec/schema/validate.js';

/** What a stub answers. */
export interface StubAnswer {
  /** A status the operation declares (any of 100–599 with `invalid`). */
  readonly status: number;
  /** The JSON body (bigints for int64 digits); required when the declared response has one. */
  readonly body?: unknown;
  /** Extra header fields; Content-Type and Content-Length are the server's. */
  readonly headers?: Readonly<Record<string, string>>;
}

export interface StubOptions {
  /** How many requests it answers; 1 by default. */
  readonly times?: number;
  /** Answer it even though the spec does not allow it (to try the client on a broken service). */
  readonly invalid?: boolean;
}

/** Why a stub was refused: stable codes. */
export type StubErrorCode = 'unknown_operation' | 'invalid_status' | 'undeclared_status' | 'invalid_body' | 'invalid_headers' | 'invalid_times';

export type StubOutcome = { readonly ok: true; readonly stub: StubSummary } | { readonly ok: false; readonly code: StubErrorCode; readonly message: string };

/** A stub as listed: its operation, status and how many requests it has left to answer. */
export interface StubSummary {
  readonly operationId: string;
  readonly status: number;
  readonly times: number;
}

/** A stub ready to be written: the body as text, the headers as a list. */
export interface QueuedStub {
  readonly status: number;
  readonly body: string | undefined;
  readonly headers: readonly string[];
  /** An Error body's code, for the journal. */
  readonly code: string | undefined;
  left: number;
}

/** The response header that marks a stubbed answer, as Petstore-Fault marks an injected fault. */
export const STUB_HEADER = 'petstore-stub';
const MAX_TIMES = 1_000_000;
const SERVERS_OWN = new Set(['content-type', 'content-length', 'transfer-encoding', 'connection', STUB_HEADER]);

type Refusal = Extract<StubOutcome, { ok: false }>;
const refuse = (code: StubErrorCode, message: string): Refusal => ({ ok: false, code, message });

export class StubTable {
  private readonly queues = new Map<string, QueuedStub[]>();
  private readonly operations: ReadonlyMap<string, OperationDescriptor>;
  private readonly validators = new Map<object, ReturnType<typeof compileSchema>>();

  constructor(operations: readonly OperationDescriptor[]) {
    this.operations = new Map(operations.map((op) => [op.operationId, op]));
  }

  /** The operations a stub (or a fault) can be set for. */
  get operationIds(): string[] {
    return [...this.operations.keys()];
  }

  /** Whether any stub is set: the one check a request makes when none is. */
  get active(): boolean {
    return this.queues.size > 0;
  }

  /** Queues `answer` after the stubs of `operationId` already set, or says why not. */
  add(operationId: string, answer: StubAnswer, options: StubOptions = {}): StubOutcome {
    const operation = this.operations.get(operationId);
    if (!operation) return refuse('unknown_operation', `no operation ${operationId}; stubs apply to ${[...this.operations.keys()].join(', ')}`);
    const times = options.times ?? 1;
    if (!Number.isInteger(times) || times < 1 || times > MAX_TIMES)
      return refuse('invalid_times', `times must be an integer from 1 to ${MAX_TIMES}, not ${times}`);
    const checked = this.check(operation, answer, options.invalid === true);
    if (!checked.ok) return checked;
    const queue = this.queues.get(operationId) ?? [];
    queue.push({ ...checked.stub, left: times });
    this.queues.set(operationId, queue);
    return { ok: true, stub: { operationId, status: answer.status, times } };
  }

  /** The stub that answers this request of `operationId`, counted as used; undefined when none is set. */
  take(operationId: string): QueuedStub | undefined {
    const queue = this.queues.get(operationId);
    const stub = queue?.[0];
    if (!queue || !stub) return undefined;
    if (--stub.left === 0) queue.shift();
    if (queue.length === 0) this.queues.delete(operationId);
    return stub;
  }

  /** The stubs set, in the order they will answer. */
  list(): StubSummary[] {
    return [...this.queues].flatMap(([operationId, queue]) => queue.map((s) => ({ operationId, status: s.status, times: s.left })));
  }

  clear(): void {
    this.queues.clear();
  }

  private check(operation: OperationDescriptor, answer: StubAnswer, invalid: boolean): { ok: true; stub: Omit<QueuedStub, 'left'> } | Refusal {
    const { status } = answer;
    if (!Number.isInteger(status) || status < 100 || status > 599)
      return refuse('invalid_status', `status must be an HTTP status from 100 to 599, not ${status}`);
    const headers = headerList(answer.headers);
    if (typeof headers === 'string') return refuse('invalid_headers', headers);
    let body: string | undefined;
    let value: JsonValue | undefined;
    if (answer.body !== undefined) {
      try {
        body = stringifyJson(answer.body as JsonValue);
        const parsed = parseJson(body);
        if (!parsed.ok) throw new Error(parsed.message);
        value = parsed.value;
      } catch (error) {
        return refuse('invalid_body', `the body is not JSON: ${(error as Error).message}`);
      }
    }
    const code = isObject(value) && typeof value['code'] === 'string' ? value['code'] : undefined;
    const stub = { status, body, headers, code };
    if (invalid) return { ok: true, stub };
    const response = operation.responses.find((r) => r.status === status);
    const where = `${operation.operationId} ${status}`;
    if (!response) {
      const declared = operation.responses.map((r) => r.status).join(', ');
      return refuse(
        'undeclared_status',
        `${operation.operationId} does not declare ${status} (it declares ${declared}); pass { invalid: true } to answer it on purpose`,
      );
    }
    if (response.schema === undefined) {
      return value === undefined
        ? { ok: true, stub }
        : refuse('invalid_body', `the ${where} answer has no body in the spec; pass { invalid: true } to send one`);
    }
    if (value === undefined) return refuse('invalid_body', `the ${where} answer has a body in the spec; give one, or pass { invalid: true }`);
    let validate = this.validators.get(response.schema);
    if (!validate) this.validators.set(response.schema, (validate = compileSchema(response.schema)));
    const issue = validate(value);
    if (issue)
      return refuse('invalid_body', `${issue.message.replace('the value', 'the body')} for the ${where} answer; pass { invalid: true } to send it on purpose`);
    return { ok: true, stub };
  }
}

/** Header fields as a list (name, value, …), or why they cannot be sent. */
function headerList(headers: StubAnswer['headers']): string[] | string {
  const list: string[] = [];
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (SERVERS_OWN.has(name.toLowerCase())) return `the server writes ${name} itself`;
    try {
      validateHeaderName(name);
      validateHeaderValue(name, value);
    } catch {
      return `${name}: ${String(value)} is not a header field HTTP can send`;
    }
    if (typeof value !== 'string') return `the value of ${name} must be a string`;
    list.push(name, value);
  }
  return list;
}
