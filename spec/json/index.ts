export { parseJson, parseJsonBytes, parseJsonArrayElements, JsonParseError, defaultParseLimits } from './parse.js';
export { parseDecimalInteger } from './exact-numbers.js';
export type { JsonValue, JsonObject, ParseLimits, ParseResult } from './parse.js';
export { stringifyJson } from './stringify.js';
