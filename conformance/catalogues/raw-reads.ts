/**
 * GET and HEAD requests written by hand for http.*.message (checks/http.ts),
 * byte for byte as raw.ts sends them: what RFC 9112 defines the answer to
 * (Host, HEAD, Connection: close, the absolute form), each with how its
 * answer is judged.
 */
import type { OperationDescriptor } from '../../spec/operations.js';
import { expectStatus } from '../check.js';
import type { WireRequest, WireResponse } from '../client.js';
import { Violation, type CheckContext } from '../vocabulary.js';

type Sent = { request: WireRequest; response: WireResponse };

export interface ReadCase {
  readonly label: string;
  /** The request line and fields, given the host, the path and the credential. */
  readonly lines: (parts: { host: string; path: string; authorization: string }) => string[];
  readonly judge: (c: CheckContext, answer: { sent: Sent; closed: boolean; more: boolean }, op: OperationDescriptor) => void;
}

/** A 400 that RFC 9112 requires and common servers do not give: anything else is an advisory. */
function adviseBadRequest(c: CheckContext, sent: Sent, op: OperationDescriptor, what: { decision: string; seed: string; request: string }): void {
  c.unspecified(
    {
      decision: what.decision,
      family: 'http',
      operationId: op.operationId,
      seed: what.seed,
      observed: `${what.request} was answered ${sent.response.status}`,
      referenceBehaviour: '400 bad_request',
      ...sent,
    },
    sent.response.status === 400,
  );
}

/** Requests RFC 9112 defines the answer to, whatever the framework: each read with the key. */
export const READ_CASES: readonly ReadCase[] = [
  {
    label: 'no Host field',
    lines: ({ path, authorization }) => [`GET ${path} HTTP/1.1`, `Authorization: ${authorization}`, 'Accept: application/json'],
    // A MUST that popular servers do not keep (uvicorn with httptools, which FastAPI's standard install uses; gunicorn;
    // Puma before 8): the request is served as if Host named the target, which harms nothing an origin server
    // answers, so it is an advisory, as two Host fields are. Failing on it (a 5xx) is a failure.
    judge: (c, { sent }, op) => {
      if (sent.response.status >= 500) throw new Violation(`an HTTP/1.1 request without Host (RFC 9112 §3.2: 400) was answered ${sent.response.status}`, sent);
      adviseBadRequest(c, sent, op, {
        decision: 'missing-host',
        seed: 'RFC 9112 §3.2: a server MUST respond 400 to an HTTP/1.1 request without a Host field (uvicorn with httptools, gunicorn and Puma before 8 serve it)',
        request: 'a request without Host',
      });
    },
  },
  {
    label: 'two Host fields',
    lines: ({ host, path, authorization }) => [`GET ${path} HTTP/1.1`, `Host: ${host}`, 'Host: conform.invalid', `Authorization: ${authorization}`],
    judge: (c, { sent }, op) =>
      adviseBadRequest(c, sent, op, {
        decision: 'two-host-fields',
        seed: 'RFC 9112 §3.2: a server MUST respond 400 to a request with more than one Host field (Node.js, Express and Fastify accept one)',
        request: 'a request with two Host fields',
      }),
  },
  {
    label: 'HEAD',
    lines: ({ host, path, authorization }) => [`HEAD ${path} HTTP/1.1`, `Host: ${host}`, `Authorization: ${authorization}`, 'Connection: close'],
    judge: (_c, { sent, more }) => {
      if (more)
        throw new Violation(
          `the answer to HEAD (${sent.response.status}) carries content after its header section (RFC 9110 §9.3.2: the server MUST NOT send content)`,
          sent,
        );
    },
  },
  {
    label: 'Connection: close',
    lines: ({ host, path, authorization }) => [`GET ${path} HTTP/1.1`, `Host: ${host}`, `Authorization: ${authorization}`, 'Connection: close'],
    judge: (_c, { sent, closed }) => {
      expectStatus(sent, [200], 'a request with Connection: close');
      if (!closed) throw new Violation('after answering a request with Connection: close, the server kept the connection open (RFC 9112 §9.6)', sent);
    },
  },
  {
    label: 'an absolute-form target',
    lines: ({ host, path, authorization }) => [`GET http://${host}${path} HTTP/1.1`, `Host: ${host}`, `Authorization: ${authorization}`, 'Connection: close'],
    judge: (c, { sent }, op) =>
      c.unspecified(
        {
          decision: 'absolute-form',
          family: 'http',
          operationId: op.operationId,
          seed: 'RFC 9112 §3.2.2: a server MUST accept the absolute-form in requests (frameworks that route the target as a path do not)',
          observed: `GET with the absolute-form target was answered ${sent.response.status}`,
          referenceBehaviour: 'answered as the origin form (200 with the list)',
          ...sent,
        },
        sent.response.status === 200 && Array.isArray(sent.response.json),
      ),
  },
];
