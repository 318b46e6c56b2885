/**
 * The journal as HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/),
 * the archive format browser developer tools (Network → Import HAR) and HTTP
 * clients (Insomnia, Postman, Charles) read: `GET /__control/journal.har`.
 * Credentials and keys are taken out exactly as in the JSON journal.
 */
import { STATUS_CODES } from 'node:http';
import { type JournalReader, type JournalRecord, shownBody, shownHeaderPairs } from './journal.js';

const CREATOR = { name: 'petstore-harness', version: '1.0.0' };

type Pairs = { name: string; value: string }[];

const pairs = (list: [string, string][]): Pairs => list.map(([name, value]) => ({ name, value }));

function headerValue(list: [string, string][], name: string): string | undefined {
  return list.find(([n]) => n.toLowerCase() === name)?.[1];
}

/** The query of a request target as HAR's name-value list, decoded as URLSearchParams reads it. */
function queryString(target: string): Pairs {
  const q = target.indexOf('?');
  if (q === -1) return [];
  return [...new URLSearchParams(target.slice(q + 1))].map(([name, value]) => ({ name, value }));
}

function harEntry(r: JournalRecord, reader: JournalReader) {
  const { redact, cap, keys } = reader;
  const requestHeaders = shownHeaderPairs(r.requestHeaders, redact);
  const path = redact(r.path);
  // HAR wants an absolute URL: the Host the client sent (an HTTP/1.0 request may have none).
  const host = headerValue(requestHeaders, 'host') ?? 'localhost';
  const httpVersion = `HTTP/${r.httpVersion}`;
  const request: Record<string, unknown> = {
    method: r.method,
    url: `http://${host}${path.startsWith('/') ? path : `/${path}`}`,
    httpVersion,
    cookies: [],
    headers: pairs(requestHeaders),
    queryString: queryString(path),
    headersSize: -1,
    bodySize: r.requestBody === undefined ? 0 : r.requestBytes,
  };
  if (r.requestBody !== undefined && r.requestBytes > 0) {
    request['postData'] = {
      mimeType: headerValue(requestHeaders, 'content-type') ?? '',
      text: shownBody(r.requestBody, r.requestBytes, cap, redact, keys).text,
    };
  }
  const responseHeaders = shownHeaderPairs(r.responseHeaders, redact);
  const body = r.responseBody === undefined ? undefined : shownBody(r.responseBody, r.responseBytes, cap, redact, keys);
  const content: Record<string, unknown> = { size: body?.bytes ?? 0, mimeType: headerValue(responseHeaders, 'content-type') ?? '' };
  if (body) content['text'] = body.text;
  const comments = [
    r.code && `code: ${r.code}`,
    r.fault && `fault: ${r.fault}`,
    r.upstreamMs !== undefined && `the upstream answered in ${r.upstreamMs} ms`,
    r.status === 0 && 'the connection was dropped without an answer',
  ].filter(Boolean);
  return {
    startedDateTime: new Date(r.arrivedAt).toISOString(),
    time: r.latencyMs,
    request,
    response: {
      status: r.status,
      statusText: r.status === 0 ? '' : (STATUS_CODES[r.status] ?? ''),
      httpVersion,
      cookies: [],
      headers: pairs(responseHeaders),
      content,
      redirectURL: '',
      headersSize: -1,
      bodySize: body?.bytes ?? 0,
    },
    cache: {},
    // The server sees only its own part: from the request's arrival to the answer written.
    // Behind `petstore proxy`, the upstream's part of the wait too (HAR 1.2 allows custom fields that start with _).
    timings: { send: 0, wait: r.latencyMs, receive: 0, ...(r.upstreamMs === undefined ? {} : { _upstreamMs: r.upstreamMs }) },
    ...(comments.length ? { comment: comments.join('; ') } : {}),
  };
}

/** A HAR 1.2 log of `records`, oldest first. */
export function journalHar(records: readonly JournalRecord[], reader: JournalReader): { log: object } {
  return { log: { version: '1.2', creator: CREATOR, entries: records.map((r) => harEntry(r, reader)) } };
}
