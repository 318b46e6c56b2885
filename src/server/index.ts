export { createServer, normaliseBasePath } from './create-server.js';
export type { ServerOptions, PetstoreServer } from './create-server.js';
export { errorCatalog, errorJson } from './errors.js';
export type { ErrorCode } from './errors.js';
export * as decisions from './decisions.js';
export { assertNoFindings, describeFindings, FindingsError } from './findings/index.js';
export type { AllowedFinding, AssertOptions, Finding, FindingCode, Severity } from './findings/index.js';
