/**
 * What a finding is: something a client did that the interface does not
 * promise to support, told in the client's terms, with the rule it breaks or
 * leans on (a JSON pointer into spec/openapi.json) and the seed's section.
 *
 * `error`: the request breaks the interface and was refused. `warning`: it
 * was served, but the client relies on something the interface does not
 * promise, or that will stop working.
 */

export type Severity = 'error' | 'warning';

/**
 * Whose doing a finding is: the client's (what it sent), or, behind
 * `petstore proxy`, the server's (what the upstream answered, judged by the
 * suite's rules for one exchange).
 */
export type Side = 'client' | 'server';

/** A server finding's code: the id of the suite's check it breaks (`responses.getPet`, `http.date`, `state.id-reused`). */
export type ServerFindingCode = `${string}.${string}`;

/**
 * Stable codes. A refusal's finding has the code of the Error the client got
 * (the catalogue's); the warnings have codes of their own.
 */
export type FindingCode =
  | 'unauthorized'
  | 'route_not_found'
  | 'method_not_allowed'
  | 'invalid_parameter'
  | 'invalid_body'
  | 'malformed_json'
  | 'unsupported_media_type'
  | 'payload_too_large'
  | 'uri_too_long'
  | 'bad_request'
  | 'pet_not_found'
  | 'gone'
  | 'unknown_query_parameter'
  | 'unknown_body_field'
  | 'deprecated_operation'
  | 'rounded_id'
  | 'key_form';

/**
 * What a check says of one request, before the ledger counts it. Everything
 * here is already safe to show: no API key, texts cut to a bounded length.
 */
export interface FindingDraft {
  readonly code: FindingCode | ServerFindingCode;
  readonly severity: Severity;
  /** Absent for the client's findings, which are all but the proxy's judgements of the upstream. */
  readonly side?: 'server';
  /** A JSON pointer into spec/openapi.json: the parameter, body field, header or operation concerned. */
  readonly rule: string;
  /** What tells two findings of one rule apart (an unknown parameter's name); '' when the rule is enough. */
  readonly subject: string;
  /** The seed's section, such as `§4.1 List animals`. */
  readonly seed: string;
  readonly operationId?: string;
  /** What was sent: by the client, in its terms (`stauts=sold`, `no Authorization header`); by the upstream, for a server finding. */
  readonly sent: string;
  /** What the interface expects instead. */
  readonly expected: string;
  /** One sentence for the developer: what went wrong and what to do. */
  readonly message: string;
  /** For a refusal: the status the request got. */
  readonly status?: number;
  /**
   * What a 4xx Error's message of the same request ends with: one short
   * sentence in the client's terms, for a test that fails on the answer alone.
   * None when the Error says it already (a refusal's own finding) or the
   * finding cannot explain a refusal (a deprecated call, a key's form).
   */
  readonly hint?: string;
}

/** One request a finding was seen in: its journal id and when it arrived (server clock). */
export interface FindingRequest {
  /** The id of the request in the journal (`GET /__control/journal` entries' `id`). */
  readonly request: number;
  readonly method: string;
  /** The request target as sent (path and query), any API key in it redacted, cut after 200 characters. */
  readonly target: string;
  /** ISO 8601, by the server clock. */
  readonly at: string;
}

/** A finding as the control API, the report file and `findings()` show it. */
export interface Finding extends Omit<FindingDraft, 'subject' | 'hint' | 'side'> {
  readonly side: Side;
  /** How many requests showed it. */
  readonly count: number;
  readonly first: FindingRequest;
  readonly last: FindingRequest;
}

/**
 * Bounds on memory: a rule keeps at most this many distinct findings (one
 * per unknown name, say); every further one is counted in one more finding
 * of that rule, whose `sent` says how many others there were.
 */
export const MAX_FINDINGS_PER_RULE = 20;
/**
 * The response header naming the findings of the request it answers, by
 * code, so that an answer read on its own shows what the stand-in saw.
 */
export const FINDING_HEADER = 'petstore-finding';

/** Texts taken from a request (a target, a value) are cut after this many characters. */
export const MAX_SHOWN_CHARS = 200;
