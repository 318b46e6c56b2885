/**
 * A JSON parser (RFC 8259) that keeps integers exact.
 *
 * `JSON.parse` turns every number into a double, so 9007199254740993 silently
 * becomes 9007199254740992. Here every number whose value is an integer
 * (`7`, `-0`, `1.0`, `1e2`) becomes a `bigint`, and only numbers with a
 * fractional part become a `number`. Int64 fields therefore round-trip digit
 * for digit, and "is it an integer?" is `typeof v === 'bigint'`.
 *
 * Decisions a client can observe (README, "Parsing"):
 * - objects have no prototype, so `__proto__`, `constructor` and `prototype`
 *   are ordinary keys and change nothing;
 * - a duplicate key keeps its last value, as `JSON.parse` does;
 * - depth and member counts are bounded so a small body cannot cost much;
 * - integers too large for any int64 are clamped to a value just outside the
 *   int64 range: they are only ever rejected, never stored.
 */
import { exactNumber, toInteger } from './exact-numbers.js';

export type JsonValue = null | boolean | string | number | bigint | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

export interface ParseLimits {
  /** Deepest nesting of arrays and objects. */
  maxDepth: number;
  /** Most object members and array elements in the whole document. */
  maxMembers: number;
  /**
   * Told of every member name that repeats one earlier in the same object,
   * with both values (the last is kept). RFC 8259 §4: names SHOULD be unique,
   * and what a receiver makes of a repeated one is unpredictable, so the
   * suite notes it.
   */
  onDuplicateKey?: (key: string, earlier: JsonValue, later: JsonValue) => void;
}

export const defaultParseLimits: ParseLimits = { maxDepth: 32, maxMembers: 10_000 };

export type ParseResult = { ok: true; value: JsonValue } | { ok: false; reason: 'syntax' | 'depth' | 'members'; message: string };

class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly reason: 'syntax' | 'depth' | 'members' = 'syntax',
  ) {
    super(message);
  }
}

export function parseJson(text: string, limits: ParseLimits = defaultParseLimits): ParseResult {
  const parser = new Parser(text, limits);
  try {
    const value = parser.document();
    return { ok: true, value };
  } catch (error) {
    if (error instanceof JsonSyntaxError) return { ok: false, reason: error.reason, message: error.message };
    // A RangeError here means the call stack ran out despite maxDepth: report it as depth.
    if (error instanceof RangeError) return { ok: false, reason: 'depth', message: 'JSON nested too deeply' };
    throw error;
  }
}

/** A document that is not JSON, from `parseJsonArrayElements`. */
export class JsonParseError extends Error {
  readonly code = 'malformed_json';
  constructor(
    message: string,
    readonly reason: 'syntax' | 'depth' | 'members',
  ) {
    super(message);
  }
}

/**
 * The elements of a top-level JSON array, parsed one at a time, so that a
 * large array (a seed of a million pets) never exists as a whole in memory.
 * Limits apply to each element. Throws a JsonParseError where the text stops
 * being JSON; elements before it have already been yielded.
 */
export function* parseJsonArrayElements(text: string, limits: ParseLimits = defaultParseLimits): Generator<JsonValue, void, undefined> {
  const parser = new Parser(text, limits);
  try {
    yield* parser.arrayElements();
  } catch (error) {
    if (error instanceof JsonSyntaxError) throw new JsonParseError(error.message, error.reason);
    if (error instanceof RangeError) throw new JsonParseError('JSON nested too deeply', 'depth');
    throw error;
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Decodes a request body as UTF-8 (a leading BOM is ignored, as RFC 8259 §8.1
 * allows) and parses it. Invalid UTF-8 is a syntax error, never replaced.
 */
export function parseJsonBytes(bytes: Uint8Array, limits: ParseLimits = defaultParseLimits): ParseResult {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { ok: false, reason: 'syntax', message: 'body is not valid UTF-8' };
  }
  return parseJson(text, limits);
}

const WS = new Uint8Array(128);
WS[0x20] = WS[0x09] = WS[0x0a] = WS[0x0d] = 1;

class Parser {
  private pos = 0;
  private depth = 0;
  private members = 0;

  constructor(
    private readonly text: string,
    private readonly limits: ParseLimits,
  ) {}

  document(): JsonValue {
    this.skipWs();
    const value = this.value();
    this.skipWs();
    if (this.pos < this.text.length) this.fail('unexpected data after the JSON value');
    return value;
  }

  *arrayElements(): Generator<JsonValue, void, undefined> {
    this.skipWs();
    if (this.text.charCodeAt(this.pos) !== 0x5b) this.fail('expected a JSON array');
    this.pos++;
    this.skipWs();
    if (this.text.charCodeAt(this.pos) === 0x5d) this.pos++;
    else {
      for (;;) {
        this.members = 0;
        yield this.value();
        this.skipWs();
        const c = this.text.charCodeAt(this.pos++);
        if (c === 0x5d) break;
        if (c !== 0x2c) {
          this.pos--;
          this.fail("expected ',' or ']'");
        }
        this.skipWs();
      }
    }
    this.skipWs();
    if (this.pos < this.text.length) this.fail('unexpected data after the JSON value');
  }

  private fail(what: string): never {
    throw new JsonSyntaxError(`malformed JSON at position ${this.pos}: ${what}`);
  }

  private skipWs(): void {
    const t = this.text;
    let p = this.pos;
    while (p < t.length) {
      const c = t.charCodeAt(p);
      if (c < 128 && WS[c] === 1) p++;
      else break;
    }
    this.pos = p;
  }

  private value(): JsonValue {
    const c = this.text.charCodeAt(this.pos);
    switch (c) {
      case 0x7b:
        return this.object();
      case 0x5b:
        return this.array();
      case 0x22:
        return this.string();
      case 0x74:
        return this.literal('true', true);
      case 0x66:
        return this.literal('false', false);
      case 0x6e:
        return this.literal('null', null);
      default:
        if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.number();
        if (Number.isNaN(c)) this.fail('unexpected end of input');
        return this.fail(`unexpected character ${JSON.stringify(this.text[this.pos])}`);
    }
  }

  private literal<T extends JsonValue>(word: string, value: T): T {
    if (!this.text.startsWith(word, this.pos)) this.fail('invalid literal');
    this.pos += word.length;
    return value;
  }

  private enter(): void {
    if (++this.depth > this.limits.maxDepth) {
      throw new JsonSyntaxError(`JSON nested deeper than ${this.limits.maxDepth} levels`, 'depth');
    }
  }

  private count(): void {
    if (++this.members > this.limits.maxMembers) {
      throw new JsonSyntaxError(`JSON has more than ${this.limits.maxMembers} members`, 'members');
    }
  }

  private object(): JsonObject {
    this.enter();
    this.pos++;
    const result: JsonObject = Object.create(null);
    this.skipWs();
    if (this.text.charCodeAt(this.pos) === 0x7d) {
      this.pos++;
      this.depth--;
      return result;
    }
    for (;;) {
      if (this.text.charCodeAt(this.pos) !== 0x22) this.fail('expected a string key');
      const key = this.string();
      this.skipWs();
      if (this.text.charCodeAt(this.pos) !== 0x3a) this.fail("expected ':'");
      this.pos++;
      this.skipWs();
      this.count();
      const value = this.value();
      if (this.limits.onDuplicateKey !== undefined && key in result) this.limits.onDuplicateKey(key, result[key]!, value);
      result[key] = value;
      this.skipWs();
      const c = this.text.charCodeAt(this.pos++);
      if (c === 0x7d) break;
      if (c !== 0x2c) {
        this.pos--;
        this.fail("expected ',' or '}'");
      }
      this.skipWs();
    }
    this.depth--;
    return result;
  }

  private array(): JsonValue[] {
    this.enter();
    this.pos++;
    const result: JsonValue[] = [];
    this.skipWs();
    if (this.text.charCodeAt(this.pos) === 0x5d) {
      this.pos++;
      this.depth--;
      return result;
    }
    for (;;) {
      this.count();
      result.push(this.value());
      this.skipWs();
      const c = this.text.charCodeAt(this.pos++);
      if (c === 0x5d) break;
      if (c !== 0x2c) {
        this.pos--;
        this.fail("expected ',' or ']'");
      }
      this.skipWs();
    }
    this.depth--;
    return result;
  }

  private string(): string {
    const t = this.text;
    const start = ++this.pos;
    // Fast path: no escapes.
    let p = start;
    for (;;) {
      const c = t.charCodeAt(p);
      if (c === 0x22) {
        this.pos = p + 1;
        return t.slice(start, p);
      }
      if (c === 0x5c) break;
      if (c < 0x20 || Number.isNaN(c)) {
        this.pos = p;
        this.fail(Number.isNaN(c) ? 'unterminated string' : 'control character in string');
      }
      p++;
    }
    let out = t.slice(start, p);
    for (;;) {
      const c = t.charCodeAt(p);
      if (c === 0x22) {
        this.pos = p + 1;
        return out;
      }
      if (Number.isNaN(c) || c < 0x20) {
        this.pos = p;
        this.fail(Number.isNaN(c) ? 'unterminated string' : 'control character in string');
      }
      if (c !== 0x5c) {
        out += t[p];
        p++;
        continue;
      }
      const e = t[p + 1];
      p += 2;
      switch (e) {
        case '"':
          out += '"';
          break;
        case '\\':
          out += '\\';
          break;
        case '/':
          out += '/';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          const hex = t.slice(p, p + 4);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
            this.pos = p;
            this.fail('invalid \\u escape');
          }
          out += String.fromCharCode(parseInt(hex, 16));
          p += 4;
          break;
        }
        default:
          this.pos = p - 1;
          this.fail('invalid escape');
      }
    }
  }

  private number(): number | bigint {
    const t = this.text;
    const start = this.pos;
    let p = start;
    const negative = t.charCodeAt(p) === 0x2d;
    if (negative) p++;
    const intStart = p;
    if (t.charCodeAt(p) === 0x30) p++;
    else if (isDigit(t.charCodeAt(p))) while (isDigit(t.charCodeAt(p))) p++;
    else {
      this.pos = p;
      this.fail('invalid number');
    }
    const intDigits = t.slice(intStart, p);
    let fracDigits = '';
    if (t.charCodeAt(p) === 0x2e) {
      const f = ++p;
      while (isDigit(t.charCodeAt(p))) p++;
      if (p === f) {
        this.pos = p;
        this.fail('invalid number');
      }
      fracDigits = t.slice(f, p);
    }
    let exponent = 0;
    let hasExponent = false;
    if ((t.charCodeAt(p) | 0x20) === 0x65) {
      hasExponent = true;
      p++;
      const sign = t[p] === '-' ? -1 : 1;
      if (t[p] === '-' || t[p] === '+') p++;
      const e = p;
      while (isDigit(t.charCodeAt(p))) p++;
      if (p === e) {
        this.pos = p;
        this.fail('invalid number');
      }
      // Past a few thousand the exponent's exact size no longer matters, so
      // only its first digits are read: after its leading zeros, or 1e0000001
      // would be read as 1e0 (and 7e-0000001 as the integer 7).
      let d = e;
      while (d < p - 1 && t.charCodeAt(d) === 0x30) d++;
      exponent = sign * Math.min(Number(t.slice(d, Math.min(p, d + 6))), 100_000);
    }
    this.pos = p;
    if (fracDigits === '' && !hasExponent) return toInteger(negative, intDigits, 0);
    return exactNumber(negative, intDigits, fracDigits, exponent, t.slice(start, p));
  }
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}
