/** What the proxy's modules pass each other of one exchange: what passed through, and the answers the proxy gives itself. */

/** One exchange as it passed through the proxy. */
export interface Passed {
  readonly method: string;
  /** The request target as the client sent it. */
  readonly target: string;
  readonly requestHeaders: Readonly<Record<string, string | readonly string[]>>;
  readonly requestBody: Buffer | undefined;
  /** The target is outside the interface's base path: passed on, not judged. */
  readonly outside: boolean;
  readonly status: number;
  /** As written back: name, value, name, value… */
  readonly responseHeaders: readonly (string | number)[];
  readonly responseBody: Buffer;
  readonly durationMs: number;
}

/** An answer the proxy gives itself, in the interface's Error shape (seed §7). */
export interface ProxyError {
  readonly status: number;
  readonly code: 'bad_gateway' | 'gateway_timeout' | 'nonconforming_upstream';
  readonly message: string;
}
