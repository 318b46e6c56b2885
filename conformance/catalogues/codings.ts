/**
 * Accept-Encoding fields that real clients send (RFC 9110 §12.5.3), each with
 * whether it leaves a coded answer acceptable. A server may code its answer
 * in any coding the field allows (and in any at all when there is no field);
 * the answer must then decode as its Content-Encoding says. One line a field.
 */
export interface AcceptEncodingEntry {
  /** null: no Accept-Encoding field at all. */
  readonly value: string | null;
  readonly sentBy: string;
  /** Whether the field allows a content coding other than identity. */
  readonly allowsCoding: boolean;
}

export const ACCEPT_ENCODINGS: readonly AcceptEncodingEntry[] = [
  { value: null, sentBy: 'undici, Node.js http, Python requests without extras', allowsCoding: true },
  { value: 'gzip, deflate, br, zstd', sentBy: 'Chrome, Firefox', allowsCoding: true },
  { value: 'gzip, deflate, br', sentBy: 'Safari, Node.js fetch', allowsCoding: true },
  { value: 'gzip, deflate', sentBy: 'curl --compressed, Python requests, axios', allowsCoding: true },
  { value: 'gzip', sentBy: 'Go net/http', allowsCoding: true },
  { value: 'br;q=1.0, gzip;q=0.8, *;q=0.1', sentBy: 'OkHttp-style weighted lists', allowsCoding: true },
  { value: 'identity', sentBy: 'clients that cannot decode', allowsCoding: false },
  { value: '', sentBy: 'an empty field: no coding wanted (RFC 9110 §12.5.3)', allowsCoding: false },
  { value: 'gzip;q=0, deflate;q=0, br;q=0, zstd;q=0, identity', sentBy: 'every coding refused by weight', allowsCoding: false },
];
