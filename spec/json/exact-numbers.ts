/**
 * Numbers from their decimal digits, on the terms of the JSON parser
 * (parse.ts): an integer value becomes an exact bigint, a value beyond any
 * int64 a sentinel just outside it, and only a value with a fractional part
 * a double. Also for plain integer texts (query and path values).
 */

/** Any integer beyond this many digits is outside int64 whatever its digits are. */
const MAX_EXACT_DIGITS = 20;
const BEYOND_INT64 = 2n ** 64n;

/**
 * Plain decimal integer text (`5`, `-3`, `007`: query and path values, not
 * JSON) as a bigint on the same terms as a JSON integer: too many digits for
 * any int64 gives a value just outside it. Anything else gives `undefined`.
 */
export function parseDecimalInteger(text: string): bigint | undefined {
  // Read digit by digit rather than by a regular expression: this runs for
  // every `limit` and `petId` a request carries.
  const negative = text.charCodeAt(0) === 0x2d;
  const start = negative ? 1 : 0;
  if (text.length === start) return undefined;
  let value = 0;
  for (let i = start; i < text.length; i++) {
    const digit = text.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9) return undefined;
    value = value * 10 + digit;
  }
  // Up to 15 digits the double is exact; longer texts take the exact path.
  if (text.length - start <= 15) return BigInt(negative ? -value : value);
  return toInteger(negative, text.slice(start), 0);
}

/** The value of `digits × 10^zeros`, or a sentinel outside int64 when it has too many digits. */
export function toInteger(negative: boolean, digits: string, zeros: number): bigint {
  // The common case (an id, a limit, a categoryId): few enough digits that no trimming or bound is needed.
  if (zeros === 0 && digits.length <= 18) {
    const value = BigInt(digits);
    return negative ? -value : value;
  }
  const trimmed = digits.replace(/^0+/, '');
  if (trimmed === '') return 0n;
  if (trimmed.length + zeros > MAX_EXACT_DIGITS) return negative ? -BEYOND_INT64 : BEYOND_INT64;
  const magnitude = BigInt(trimmed + '0'.repeat(zeros));
  return negative ? -magnitude : magnitude;
}

/** A literal with a fraction or exponent: a bigint when its value is an integer, else a double. */
export function exactNumber(negative: boolean, intDigits: string, fracDigits: string, exponent: number, raw: string): number | bigint {
  let mantissa = (intDigits + fracDigits).replace(/^0+/, '');
  if (mantissa === '') return 0n;
  let scale = exponent - fracDigits.length;
  const significant = mantissa.replace(/0+$/, '');
  scale += mantissa.length - significant.length;
  mantissa = significant;
  if (scale >= 0) return toInteger(negative, mantissa, scale);
  return Number(raw);
}
