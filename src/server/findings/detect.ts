/**
 * Every check of a request against the spec, each making a FindingDraft for
 * the ledger: the refusals (what the client got wrong, from the Error it was
 * answered) and the warnings (what it relies on that the interface does not
 * promise). Compiled once per server; drafts that recur on every request of
 * a kind (a deprecated call, a refused key) are built once and reused, so a
 * repeated mistake costs the ledger's count and nothing else.
 *
 * The drafts themselves are made next door, one module per kind: the key's
 * (auth-drafts.ts), a deprecated operation's (operation-drafts.ts), an
 * unknown name's (unknown-name-drafts.ts) and the other refusals'
 * (refusal.ts).
 */
import type { OperationDescriptor } from '../../../spec/operations.js';
import type { ErrorCode } from '../errors.js';
import type { Limits } from '../decisions.js';
import { authorizationForm, isCanonicalBearer } from './auth-form.js';
import { createFormDrafts, keyFormDraft, unauthorizedDraft } from './auth-drafts.js';
import type { CheckedRequest } from './checked-request.js';
import { MAX_SHOWN_CHARS, type FindingCode } from './finding.js';
import type { FindingLedger } from './ledger.js';
import { prepareOperationDrafts } from './operation-drafts.js';
import { refusalDraft, type RefusalContext } from './refusal.js';
import { cutShown } from './shown.js';
import { unknownFieldDraft, unknownQueryDraft } from './unknown-name-drafts.js';

export type { CheckedRequest, Culprit } from './checked-request.js';

export interface FindingDetectorOptions {
  readonly ledger: FindingLedger;
  readonly operations: readonly OperationDescriptor[];
  readonly basePath: string;
  readonly limits: Limits;
  readonly redact: (text: string) => string;
  readonly keys: readonly string[];
}

/** The Error codes that say the client got something wrong; the rest (a fault, a full store, a bug) are not its doing. */
const CLIENT_CODES: ReadonlySet<string> = new Set<FindingCode>([
  'unauthorized',
  'route_not_found',
  'method_not_allowed',
  'invalid_parameter',
  'invalid_body',
  'malformed_json',
  'unsupported_media_type',
  'payload_too_large',
  'uri_too_long',
  'bad_request',
  'pet_not_found',
  'gone',
]);

/** Whether an Error of `code` says the client got something wrong (a finding), rather than the server or the operator. */
export function isClientCode(code: string): boolean {
  return CLIENT_CODES.has(code);
}

export type FindingDetector = ReturnType<typeof createFindingDetector>;

export function createFindingDetector(options: FindingDetectorOptions) {
  const { ledger, operations, basePath, limits, redact, keys } = options;
  const shown = (text: string) => cutShown(redact(text), MAX_SHOWN_CHARS, keys);
  const listing = operations.map((op) => `${op.method} ${basePath}${op.path}`).join(', ');
  const refusals: RefusalContext = { operations, basePath, limits, redact, shown, listing };
  const perOperation = prepareOperationDrafts(operations, basePath);
  const formDraft = createFormDrafts();

  return {
    ledger,

    /** A call of a deprecated operation, which was served. */
    deprecated(x: CheckedRequest, op: OperationDescriptor): void {
      const draft = perOperation.get(op)?.deprecated;
      if (draft) ledger.note(x, draft);
    },

    /** An accepted key sent in a form other than `Bearer <key>` (`bearer`, two spaces). */
    keyForm(x: CheckedRequest, header: string): void {
      if (isCanonicalBearer(header)) return;
      const form = authorizationForm(header, redact);
      ledger.note(
        x,
        formDraft(`accepted ${form}`, () => keyFormDraft(form)),
      );
    },

    /** A query parameter the operation does not have: ignored by the server (D3), so the client's intent is lost. */
    unknownQuery(x: CheckedRequest, op: OperationDescriptor, name: string, value: string): void {
      ledger.note(x, unknownQueryDraft(op, name, value, shown));
    },

    /** A body field the schema does not declare: ignored, never stored (D4). */
    unknownField(x: CheckedRequest, op: OperationDescriptor, name: string, valueJson: string): void {
      ledger.note(x, unknownFieldDraft(op, name, valueJson, shown, redact));
    },

    /** A refused request: the Error it got, read as a finding. `message` is the Error's. */
    refused(x: CheckedRequest, code: ErrorCode, message: () => string): void {
      if (!CLIENT_CODES.has(code)) return;
      if (code === 'unauthorized') return ledger.note(x, unauthorizedDraft(x, redact, formDraft));
      const op = x.operation;
      if (code === 'gone' && op) {
        const draft = perOperation.get(op)?.gone;
        if (draft) return ledger.note(x, draft);
      }
      ledger.note(x, refusalDraft(refusals, x, code, op, message()));
    },
  };
}
