export { parseJson, parseJsonBytes, parseDecimalInteger, parseJsonArrayElements, JsonParseError, defaultParseLimits } from './parse.js';
export type { JsonValue, JsonObject, ParseLimits, ParseResult } from './parse.js';
export { stringifyJson } from './stringify.js';
