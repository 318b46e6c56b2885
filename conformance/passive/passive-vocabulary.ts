/**
 * What passes between the proxy and the suite's passive judge: one exchange
 * as the proxy saw it on the wire, and what the judge found wrong with it.
 * Types only, so the proxy and the judge's modules can share them without
 * importing each other.
 */
import type { ReadBody } from '../response-body.js';

export interface PassiveFinding {
  /** The suite's check id the problem breaks: 'responses.getPet', 'responses.no-server-error', 'http.date', 'leaks.getPet.key', 'state.created-unchanged', … */
  readonly rule: string;
  /** 'error': what the suite reports as a failure; 'warning': what it reports as an advisory (an open decision). */
  readonly severity: 'error' | 'warning';
  readonly requirement: string;
  /** The seed section and RFC it comes from. */
  readonly section: string;
  readonly operationId?: string;
  /** What was seen, one sentence, in the suite's words. */
  readonly problem: string;
  /** Groups repeats of one problem (the wording without its numbers, as rules.ts does). */
  readonly kind: string;
}

export interface PassedExchange {
  readonly method: string;
  /** The request target relative to the interface's base path, with its query: '/pets?limit=5' (the proxy strips the base path). */
  readonly path: string;
  /** Request header fields, lower-case names; a repeated field's values in order. */
  readonly requestHeaders: Readonly<Record<string, string | readonly string[]>>;
  readonly requestBody?: Buffer;
  readonly status: number;
  /** Response header fields as received (lower-case names; repeated ones joined with ', ' except set-cookie). */
  readonly responseHeaders: Readonly<Record<string, string>>;
  /** The response body's bytes as received (still content-coded, if any); undefined when it was too large to judge. */
  readonly responseBody: Buffer | undefined;
  readonly durationMs: number;
  /**
   * The response body as readPassedBody read it, when the caller read it already: the proxy reads it first, to take
   * its JSON too, so the body is parsed once. Read from responseBody when absent.
   */
  readonly read?: ReadBody;
}
