/**
 * What the seed leaves open ("not shown"), decided once for the reference
 * server. docs/decisions.md explains each; nothing here is in the
 * spec, and the conformance suite assumes none of it unless run with --strict.
 */

/** The key accepted when no key is configured, printed at start-up. Development only. */
export const DEVELOPMENT_API_KEY = 'petstore-dev-key';

export const DEFAULT_BASE_PATH = '/v1';
export const DEFAULT_PORT = 4010;
export const DEFAULT_HOST = '127.0.0.1';

/**
 * When getPet became deprecated, for the `Deprecation` header (RFC 9745). The
 * seed says it "is marked deprecated" as of v1.0.0 without a date; this
 * project uses 1 January 2025, safely in the past and before the sunset.
 */
export const GET_PET_DEPRECATED_SINCE = new Date('2025-01-01T00:00:00Z');

/** The realm of the `WWW-Authenticate` challenge (RFC 6750 §3). */
export const AUTH_REALM = 'petstore';

export const defaultLimits = {
  /** Request bodies above this are refused with 413. */
  maxBodyBytes: 1024 * 1024,
  /** Control API bodies (a bulk load of pets) above this are refused with 413. */
  maxControlBodyBytes: 64 * 1024 * 1024,
  /**
   * Requests the journal keeps (the latest). Each keeps both sides' headers
   * and bodies, which outlive the request; measured (docs/performance.md),
   * keeping 1,000 cost about 6% more CPU per request in garbage collection,
   * keeping 100 nothing measurable. `--journal-size` raises it.
   */
  journalSize: 100,
  /** Bytes of each body (request and response) the journal keeps; a longer one is cut, with a marker. */
  journalBodyBytes: 16 * 1024,
  /** Request targets (path and query) above this are refused with 414. */
  maxUrlBytes: 8 * 1024,
  /** Request headers above this are refused with 431 by Node's parser. */
  maxHeaderBytes: 16 * 1024,
  /** Deepest JSON nesting accepted in a body. */
  maxJsonDepth: 32,
  /** Most JSON members (object members plus array elements) in a body. */
  maxJsonMembers: 10_000,
  /** Most pets the store holds; creation beyond it answers 507. */
  maxPets: 1_000_000,
  /** Time for a client to send all its headers (against slowloris). */
  headersTimeoutMs: 10_000,
  /** Time for a client to send the whole request. */
  requestTimeoutMs: 30_000,
  /** How long an idle keep-alive connection stays open. */
  keepAliveTimeoutMs: 5_000,
  /** Most simultaneous connections; more are refused by the listener. */
  maxConnections: 10_000,
  /** On shutdown, how long in-flight requests get before connections are cut. */
  shutdownGraceMs: 5_000,
} as const;

export type Limits = { -readonly [K in keyof typeof defaultLimits]: number };
