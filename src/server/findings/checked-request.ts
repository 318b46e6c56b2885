/** What the finding checks read of a request: the request itself, and what the pipeline learnt of it before it was answered. */
import type { OperationDescriptor } from '../../../spec/operations.js';
import type { NotedRequest } from './ledger.js';

/** What a refusal's finding needs to know beyond the Error: the parameter or field it was about, set where the request was refused. */
export interface Culprit {
  /** A parameter's or field's name (`limit`, `categoryId`), a path template for a 405, an id for a rounded one. */
  readonly name: string;
  /** What was sent for it, as shown (redacted, short); absent when it was missing. */
  readonly sent?: string;
}

/** The request as the checks read it. */
export interface CheckedRequest extends NotedRequest {
  readonly req: NotedRequest['req'] & { readonly headers: Record<string, string | string[] | undefined>; readonly rawHeaders: readonly string[] };
  readonly operation?: OperationDescriptor | undefined;
  readonly culprit?: Culprit | undefined;
  readonly requestBody?: Buffer | undefined;
}
