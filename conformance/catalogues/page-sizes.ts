/**
 * Ways a client (or an attacker) spells a page size, beyond the valid
 * integers: parameter pollution, other letter cases, framework array and
 * operator syntax, numbers that wrap around in 32 or 64 bits, other
 * numerals. Whatever the target makes of them, no page may hold more than
 * the maximum (seed §8; OWASP API4:2023). One line a spelling; `name` is the
 * parameter (`limit`), `max` its maximum.
 */
export interface PageSizeForm {
  readonly label: string;
  readonly query: (name: string, max: bigint) => string;
}

const over = (max: bigint): bigint => max * 10n;

export const PAGE_SIZE_FORMS: readonly PageSizeForm[] = [
  { label: 'far above the maximum', query: (n, max) => `${n}=${over(max)}` },
  { label: 'zero (no limit, to some stores)', query: (n) => `${n}=0` },
  { label: 'minus one (no limit, to some stores)', query: (n) => `${n}=-1` },
  { label: 'the maximum with a zero fraction', query: (n, max) => `${n}=${max}.0` },
  { label: 'an exponent', query: (n, max) => `${n}=1e${String(over(max)).length - 1}` },
  { label: 'a plus sign', query: (n, max) => `${n}=%2B${over(max)}` },
  { label: 'leading white space', query: (n, max) => `${n}=%20${over(max)}` },
  { label: 'hexadecimal', query: (n, max) => `${n}=0x${over(max).toString(16)}` },
  { label: 'a thousands separator', query: (n, max) => `${n}=${over(max).toLocaleString('en-US')}` },
  {
    label: 'Arabic-Indic digits',
    query: (n, max) => `${n}=${encodeURIComponent([...String(over(max))].map((d) => String.fromCharCode(0x660 + Number(d))).join(''))}`,
  },
  { label: 'twice, the valid value first', query: (n, max) => `${n}=${max}&${n}=${over(max)}` },
  { label: 'twice, the valid value last', query: (n, max) => `${n}=${over(max)}&${n}=1` },
  { label: 'as an array (PHP, qs)', query: (n, max) => `${n}[]=${over(max)}` },
  { label: 'as an operator (qs, MongoDB)', query: (n) => `${n}[$gt]=0` },
  { label: 'in upper case', query: (n, max) => `${n.toUpperCase()}=${over(max)}` },
  { label: 'capitalised', query: (n, max) => `${n.charAt(0).toUpperCase()}${n.slice(1)}=${over(max)}` },
  { label: '2^31, negative in 32 bits', query: (n) => `${n}=2147483648` },
  { label: '2^32 + 1, one in 32 bits', query: (n) => `${n}=4294967297` },
  { label: '2^64 + 1, one in 64 bits', query: (n) => `${n}=18446744073709551617` },
  { label: 'beyond every integer type', query: (n) => `${n}=99999999999999999999999999` },
  { label: 'empty', query: (n) => `${n}=` },
  { label: 'without a value', query: (n) => n },
  { label: 'NaN', query: (n) => `${n}=NaN` },
  { label: 'Infinity', query: (n) => `${n}=Infinity` },
  { label: 'a NUL after the digits', query: (n, max) => `${n}=${over(max)}%00` },
];
