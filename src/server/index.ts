export { createServer, normaliseBasePath } from './create-server.js';
export type { ServerOptions, PetstoreServer } from './create-server.js';
export { errorCatalog, errorJson } from './errors.js';
export type { ErrorCode } from './errors.js';
export * as decisions from './decisions.js';
