/**
 * Preconditions and ranges sent on a read by http.*.conditional
 * (checks/http.ts), each with how its answer is judged: the fields, given
 * the ETag the plain read carried, and whether the key is left out.
 */
import { expectErrorBody, expectStatus } from '../check.js';
import type { WireRequest, WireResponse } from '../client.js';
import { Violation } from '../vocabulary.js';

type Sent = { request: WireRequest; response: WireResponse };

export interface ConditionalCase {
  readonly label: string;
  readonly headers: (etag: string | undefined) => Record<string, string>;
  readonly withoutKey?: true;
  readonly judge: (sent: Sent, etag: string | undefined) => void;
}

const NEVER_ISSUED = '"conform-never-issued"';

export const CONDITIONAL_CASES: readonly ConditionalCase[] = [
  {
    label: 'If-None-Match with a tag never issued',
    headers: () => ({ 'if-none-match': NEVER_ISSUED }),
    judge: (sent) => expectStatus(sent, [200], `If-None-Match: ${NEVER_ISSUED} (a tag the server never issued)`),
  },
  {
    label: 'If-Modified-Since that is not a date',
    headers: () => ({ 'if-modified-since': 'not a date' }),
    judge: (sent) => expectStatus(sent, [200], 'If-Modified-Since: not a date (an invalid date must be ignored)'),
  },
  {
    label: 'If-None-Match with the tag just issued',
    headers: (etag) => ({ 'if-none-match': etag ?? NEVER_ISSUED }),
    judge: (sent, etag) => {
      expectStatus(sent, etag === undefined ? [200] : [200, 304], `If-None-Match: ${etag ?? NEVER_ISSUED}`);
      if (sent.response.status === 304 && sent.response.headers['etag'] === undefined)
        throw new Violation('a 304 without the ETag that the 200 carried (RFC 9110 §15.4.5)', sent);
    },
  },
  {
    label: 'Range: bytes=0-3',
    headers: () => ({ range: 'bytes=0-3' }),
    judge: (sent) => expectStatus(sent, [200, 206, 416], 'Range: bytes=0-3 (ignored, served or refused)'),
  },
  {
    label: 'If-None-Match: * without the key',
    headers: () => ({ 'if-none-match': '*' }),
    withoutKey: true,
    judge: (sent) => {
      expectStatus(sent, [401], 'If-None-Match: * without a key');
      expectErrorBody(sent);
    },
  },
  {
    label: 'the issued tag without the key',
    headers: (etag) => ({ 'if-none-match': etag ?? NEVER_ISSUED, 'if-modified-since': 'Sun, 01 Jan 2090 00:00:00 GMT' }),
    withoutKey: true,
    judge: (sent) => {
      expectStatus(sent, [401], 'a precondition the representation meets, without a key');
      expectErrorBody(sent);
    },
  },
  {
    label: 'Range without the key',
    headers: () => ({ range: 'bytes=0-3' }),
    withoutKey: true,
    judge: (sent) => {
      expectStatus(sent, [401], 'Range: bytes=0-3 without a key');
      expectErrorBody(sent);
    },
  },
];
