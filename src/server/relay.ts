/**
 * The server in front of another implementation (`petstore proxy`): the
 * pipeline checks each request as the stand-in does (the route, the key's
 * form, the parameters, the NewPet) and notes the same findings, and where
 * the stand-in would read or write its store, the request is handed to the
 * relay, which passes it to the upstream and answers with what came back.
 * A request the stand-in would refuse is noted and passed on all the same,
 * unless the relay refuses invalid requests itself, as the stand-in does.
 */
import type { ErrorCode } from './errors.js';
import { errorMessage } from './errors.js';
import { isClientCode } from './findings/detect.js';
import type { Exchange, Responder, ResponderHooks } from './respond.js';
import type { ServedFront } from './served-spec.js';

/** Called once the relay has answered: the journal and the log hear of it as of any answer. */
export type Answered = ResponderHooks['answered'];

/** Notes what an Error of `code` says the client got wrong, as the stand-in's own refusal would (its finding); before the answer is written. */
export type Refused = NonNullable<ResponderHooks['refusing']>;

/** What the relay tells the server of the requests it answers. */
export interface RelayHooks {
  readonly answered: Answered;
  readonly refused: Refused;
}

export interface Relay {
  /** Answer what the stand-in would refuse as it would (400, 401…) instead of passing it on. */
  readonly refuseInvalid: boolean;
  /**
   * Passes `x` on and answers it. The request's body is `x.requestBody` when
   * the pipeline read it (whole, or its head when `x.bodyCut`, the rest still
   * in `x.req`); otherwise it is still unread in `x.req`.
   */
  forward(x: Exchange, hooks: RelayHooks): void;
  /** What the relay answers itself, for the served contract (`/docs/openapi.json`). */
  readonly front?: ServedFront;
}

/**
 * The responder the pipeline answers through in front of a relay: a refusal
 * of what the client got wrong is noted (`refusing`, its finding) and the
 * request passed on instead of answered. What is not the client's doing (an
 * injected fault, a failure of the server) and everything outside the
 * interface (the control API, the page) is answered as usual.
 */
export function passingRefusalsOn(respond: Responder, relay: Relay, hooks: RelayHooks): Responder {
  if (relay.refuseInvalid) return respond;
  const { refused: refusing } = hooks;
  // CONNECT asks a proxy for a tunnel, not for an answer it can pass on: the interface has no such operation, so its refusal is answered here.
  const passesOn = (x: Exchange, code: ErrorCode | undefined): code is ErrorCode =>
    code !== undefined && !x.toControl && isClientCode(code) && x.req.method !== 'CONNECT';
  return {
    ...respond,
    send(x, status, body, headers, code) {
      if (!passesOn(x, code)) return respond.send(x, status, body, headers, code);
      refusing(x, code, () => errorMessage(body));
      relay.forward(x, hooks);
    },
    sendError(x, code, message, headers, status) {
      if (!passesOn(x, code)) return respond.sendError(x, code, message, headers, status);
      refusing(x, code, () => message);
      relay.forward(x, hooks);
    },
  };
}
