/**
 * Whole POST messages written by hand for http.*.message (checks/http.ts):
 * the framings RFC 9112 lets any client use (chunked, chunk extensions, a
 * trailer), a Range field a server must ignore, and Transfer-Encoding beside
 * Content-Length. One entry a message: adding one is adding an entry.
 */
export interface MessageCase {
  readonly label: string;
  /** The request, given the host, path, credential and JSON body. */
  readonly build: (parts: { host: string; path: string; authorization: string; body: string }) => string;
  /** The case where Transfer-Encoding and Content-Length are both sent (RFC 9112 §6.3 item 3). */
  readonly conflicting?: true;
}

/** `body` as two chunks of the chunked transfer coding (RFC 9112 §7.1), each with `extension`. */
export const chunks = (body: string, extension = ''): string => {
  // Split between characters, never inside a surrogate pair: half of one would be written as U+FFFD.
  let half = Math.floor(body.length / 2);
  if (/[\ud800-\udbff]/.test(body.charAt(half - 1))) half++;
  return [body.slice(0, half), body.slice(half)].map((part) => `${Buffer.byteLength(part).toString(16)}${extension}\r\n${part}\r\n`).join('');
};

/** A header section from its lines: each ended by CRLF, then the empty line. */
export const head = (lines: readonly string[]): string => `${lines.join('\r\n')}\r\n\r\n`;

/** Messages RFC 9112 lets any client send, each carrying one valid NewPet. */
export const MESSAGE_CASES: readonly MessageCase[] = [
  {
    label: 'a chunked body (RFC 9112 §7.1)',
    build: ({ host, path, authorization, body }) =>
      head([`POST ${path} HTTP/1.1`, `Host: ${host}`, `Authorization: ${authorization}`, 'Content-Type: application/json', 'Transfer-Encoding: chunked']) +
      `${chunks(body)}0\r\n\r\n`,
  },
  {
    label: 'a chunked body with chunk extensions (RFC 9112 §7.1.1)',
    build: ({ host, path, authorization, body }) =>
      head([`POST ${path} HTTP/1.1`, `Host: ${host}`, `Authorization: ${authorization}`, 'Content-Type: application/json', 'Transfer-Encoding: chunked']) +
      `${chunks(body, ';conform=1')}0;conform=end\r\n\r\n`,
  },
  {
    label: 'a chunked body with a trailer field (RFC 9112 §7.1.2)',
    build: ({ host, path, authorization, body }) =>
      `${head([
        `POST ${path} HTTP/1.1`,
        `Host: ${host}`,
        `Authorization: ${authorization}`,
        'Content-Type: application/json',
        'Transfer-Encoding: chunked',
        'Trailer: Conform-Trailer',
      ])}${chunks(body)}0\r\nConform-Trailer: 1\r\n\r\n`,
  },
  {
    label: 'a Range field on POST, which a server MUST ignore (RFC 9110 §14.2)',
    build: ({ host, path, authorization, body }) =>
      head([
        `POST ${path} HTTP/1.1`,
        `Host: ${host}`,
        `Authorization: ${authorization}`,
        'Content-Type: application/json',
        `Content-Length: ${Buffer.byteLength(body)}`,
        'Range: bytes=0-1',
      ]) + body,
  },
  {
    label: 'Transfer-Encoding: chunked beside a Content-Length of 1 (RFC 9112 §6.3)',
    conflicting: true,
    build: ({ host, path, authorization, body }) =>
      `${head([
        `POST ${path} HTTP/1.1`,
        `Host: ${host}`,
        `Authorization: ${authorization}`,
        'Content-Type: application/json',
        'Content-Length: 1',
        'Transfer-Encoding: chunked',
      ])}${chunks(body)}0\r\n\r\n`,
  },
];
