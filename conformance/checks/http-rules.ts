/**
 * http (RFC 9110, RFC 9111, RFC 6750 §3): what every answer of an origin
 * server must carry, judged on every answer of the run, whatever asked for
 * it. Each rule is one MUST of the RFCs; a SHOULD beside it is an advisory.
 */
import { basePathOf, fieldOf, type Exchange } from '../client.js';
import { BEARER_PARAM_CHARS, cacheDirectives, contentRange, imfFixdate, parseChallenges, splitList } from '../fields.js';
import type { AnswerRule, RuleFinding } from './rules.js';
import { interfaceMethods } from '../tolerances.js';
import { isObject } from '../../spec/json/is-object.js';

const presentedAuthorization = (exchange: Exchange): string | undefined => fieldOf(exchange.request, 'authorization');

/** RFC 9110 §6.6.1: an origin server with a clock MUST send Date in every 2xx, 3xx and 4xx answer, as an IMF-fixdate (§5.6.7). */
const date: AnswerRule = {
  id: 'http.date',
  family: 'http',
  title: 'every 2xx, 3xx and 4xx answer carries a Date field, as an IMF-fixdate',
  requirement:
    'An origin server with a clock MUST generate a Date header field in all 2xx, 3xx and 4xx responses (RFC 9110 §6.6.1), and a sender MUST generate an HTTP-date as an IMF-fixdate (§5.6.7). The deprecation of getPet is judged by this clock (seed §4.3).',
  section: 'RFC 9110 §6.6.1, §5.6.7',
  // A 400 to a message written by hand (no Host, a conflicting framing) comes from the HTTP parser itself, which in
  // Node.js (Express, Fastify) writes a bare status line: that is the stack's answer, not the service's.
  applies: ({ request, response }) => response.status >= 200 && response.status < 500 && !(request.raw !== undefined && response.status === 400),
  judge({ response }) {
    const value = response.headers['date'];
    if (value === undefined) return { problem: `a ${response.status} answer without a Date field` };
    if (imfFixdate(value) === undefined) return { problem: `Date: ${value} is not an IMF-fixdate such as "Sun, 06 Nov 1994 08:49:37 GMT"` };
    return undefined;
  },
};

/** RFC 9110 §11.6.1, §15.5.2 and RFC 6750 §3: a 401 MUST carry a challenge, with the Bearer scheme. */
const challenge: AnswerRule = {
  id: 'http.challenge',
  family: 'http',
  title: 'every 401 carries WWW-Authenticate with a Bearer challenge whose error attributes are well-formed',
  requirement:
    'A server generating a 401 MUST send a WWW-Authenticate header field containing at least one challenge applicable to the target resource (RFC 9110 §11.6.1, §15.5.2); the resource server MUST include it, with the auth-scheme "Bearer" (RFC 6750 §3), and the values of error, error_description and scope MUST NOT hold characters outside %x20-21 / %x23-5B / %x5D-7E. The seed requires bearer authentication on every operation (§5.1).',
  section: 'RFC 9110 §11.6.1, §15.5.2; RFC 6750 §3',
  applies: ({ response }) => response.status === 401,
  judge(exchange): RuleFinding | undefined {
    const value = exchange.response.headers['www-authenticate'];
    if (value === undefined) return { problem: 'a 401 without a WWW-Authenticate field' };
    const challenges = parseChallenges(value);
    if (challenges === undefined) return { problem: `WWW-Authenticate: ${value} is not a list of challenges (RFC 9110 §11.3)` };
    const bearer = challenges.find((c) => c.scheme === 'bearer');
    if (!bearer) return { problem: `WWW-Authenticate: ${value} has no Bearer challenge, the only scheme the interface takes` };
    for (const [name, pattern] of Object.entries(BEARER_PARAM_CHARS)) {
      const attribute = bearer.params[name];
      if (attribute !== undefined && !pattern.test(attribute))
        return { problem: `the Bearer challenge's ${name} holds a character RFC 6750 §3 forbids: ${JSON.stringify(attribute)}` };
    }
    if (presentedAuthorization(exchange) === undefined && bearer.params['error'] !== undefined) {
      return {
        open: `a request with no credential got a challenge with error="${bearer.params['error']}"`,
        decision: 'challenge-error-without-credential',
        seed: 'RFC 6750 §3: when the request lacks any authentication information, the server SHOULD NOT include an error code',
        reference: 'WWW-Authenticate: Bearer realm="petstore" (no error) when no credential was sent',
      };
    }
    return undefined;
  },
};

/** RFC 9110 §15.5.6: a 405 MUST carry Allow. */
const allow: AnswerRule = {
  id: 'http.allow',
  family: 'http',
  title: 'every 405 carries an Allow field listing the methods the resource has',
  requirement:
    "The origin server MUST generate an Allow header field in a 405 (Method Not Allowed) response containing a list of the target resource's currently supported methods (RFC 9110 §15.5.6, §10.2.1).",
  section: 'RFC 9110 §15.5.6, §10.2.1',
  // A 405 that is not JSON, to a method the interface does not define anywhere (TRACE, WebDAV's), is a gateway's or a
  // web server's own page in front of the interface (nginx answers TRACE itself): theirs to fix, not the interface's.
  applies: ({ request, response }, ctx) => response.status === 405 && !(response.json === undefined && !interfaceMethods(ctx.operations).has(request.method)),
  judge({ response }) {
    const value = response.headers['allow'];
    if (value === undefined) return { problem: 'a 405 without an Allow field' };
    const bad = splitList(value).find((m) => !/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(m));
    return bad === undefined ? undefined : { problem: `Allow: ${value} holds ${JSON.stringify(bad)}, which is not a method` };
  },
};

/** RFC 9110 §15.3.7: a 206 for one range MUST carry Content-Range (and MUST NOT be multipart, §15.3.7.2); §15.5.17: a 416 SHOULD. */
const partialContent: AnswerRule = {
  id: 'http.partial-content',
  family: 'http',
  title: 'a 206 carries a Content-Range that matches its content; a 416 says the length it has',
  requirement:
    'A server generating a 206 response to a request with a single range MUST generate a Content-Range header field describing what range of the selected representation is enclosed, and MUST NOT generate a multipart response to it (RFC 9110 §15.3.7, §15.3.7.2, §14.4); a 416 SHOULD carry Content-Range: bytes */<length> (§15.5.17).',
  section: 'RFC 9110 §15.3.7, §14.4, §15.5.17',
  applies: ({ response }) => response.status === 206 || response.status === 416,
  judge({ request, response }): RuleFinding | undefined {
    const value = response.headers['content-range'];
    if (response.status === 416) {
      return value !== undefined && /^bytes \*\/\d+$/i.test(value.trim())
        ? undefined
        : {
            open: `a 416 with Content-Range ${value ?? '(absent)'}`,
            decision: 'range-not-satisfiable',
            seed: 'RFC 9110 §15.5.17: a server SHOULD send Content-Range: bytes */<length>',
            reference: 'the reference server ignores Range (a 200 with the whole representation)',
          };
    }
    // The suite asks one range at a time, and a multipart answer to one range is forbidden (§15.3.7.2): it carries
    // no Content-Range of its own and fails as a 206 without one.
    const range = contentRange(value);
    if (range === undefined) return { problem: `a 206 to ${request.method} with Content-Range ${value ?? '(absent)'}` };
    const length = Buffer.byteLength(response.text);
    if (response.coding === undefined && range.last - range.first + 1 !== length)
      return { problem: `Content-Range: ${value} names ${range.last - range.first + 1} bytes, but the content has ${length}` };
    return undefined;
  },
};

/** RFC 9110 §15.4.5, §13.2.1: a 304 only answers a conditional GET or HEAD that was allowed to run. */
const notModified: AnswerRule = {
  id: 'http.not-modified',
  family: 'http',
  title: 'a 304 answers only a GET or HEAD that carried a precondition, and never a request without a valid key',
  requirement:
    'A 304 indicates that a conditional GET or HEAD request would have resulted in a 200 if the condition had not evaluated to false (RFC 9110 §15.4.5); a server MUST ignore preconditions when its answer without them would not have been a 2xx or 412 (§13.2.1), so a request refused for its credential (seed §5.3: 401) is never answered 304.',
  section: 'RFC 9110 §15.4.5, §13.2.1; seed §5.3',
  applies: ({ response }) => response.status === 304,
  judge(exchange, ctx) {
    const { request } = exchange;
    const headers = request.headers;
    if (request.method !== 'GET' && request.method !== 'HEAD') return { problem: `a 304 to ${request.method}, which is never conditional on freshness` };
    if (headers['if-none-match'] === undefined && headers['if-modified-since'] === undefined)
      return { problem: 'a 304 to a request that carried neither If-None-Match nor If-Modified-Since' };
    if (presentedAuthorization(exchange) !== ctx.client.authorization)
      return { problem: 'a 304 to a request without the valid key: preconditions must be ignored where the answer is a 401' };
    return undefined;
  },
};

/**
 * RFC 9110 §8.6: no Content-Length in a 204. A 204 ends at its header section whatever its fields say (RFC 9112
 * §6.3), so `Content-Length: 0` states what every recipient reads anyway: Express's `cors` middleware (and NestJS's
 * `enableCors()`, which uses it) answers every OPTIONS so, by default. That is an advisory; any other length is a
 * failure, as a recipient that trusts it waits for content that never comes.
 */
const noContentLength: AnswerRule = {
  id: 'http.no-content-length',
  family: 'http',
  title: 'a 204 carries no Content-Length (or at most Content-Length: 0, an advisory)',
  requirement: 'A server MUST NOT send a Content-Length header field in any response with a status code of 1xx or 204 (RFC 9110 §8.6).',
  section: 'RFC 9110 §8.6; RFC 9112 §6.3',
  applies: ({ response }) => response.status === 204,
  judge({ response }): RuleFinding | undefined {
    const value = response.headers['content-length'];
    if (value === undefined) return undefined;
    if (value.trim() === '0') {
      return {
        open: 'a 204 with Content-Length: 0',
        decision: 'no-content-length-zero',
        seed: 'RFC 9110 §8.6: a server MUST NOT send Content-Length in a 204; RFC 9112 §6.3: a 204 ends at its header section whatever the field says',
        reference: 'a 204 without Content-Length',
      };
    }
    return { problem: `a 204 with Content-Length: ${value}` };
  },
};

/**
 * RFC 9111 §3.5: a shared cache reuses an answer to a request with
 * Authorization for other requests only when the answer allows it (public,
 * s-maxage, must-revalidate). Pet data so marked would reach clients without
 * a key through any shared cache on the way.
 */
const sharedCache: AnswerRule = {
  id: 'http.shared-cache',
  family: 'http',
  title: 'an answer with pets to a request with the key is never marked reusable by shared caches for other clients',
  requirement:
    'Every operation requires the API key (seed §5.1). A shared cache MUST NOT reuse an answer to a request with Authorization for other requests unless the answer has public, s-maxage or must-revalidate (RFC 9111 §3.5): an answer with pets so marked, without Vary: Authorization and without private or no-store, is served by any shared cache to clients without a key.',
  section: 'RFC 9111 §3.5, §5.2.2; seed §5.1',
  // Any Authorization field, the key in another form a server accepts too (RFC 9111 §3.5 speaks of the field).
  applies: (exchange) =>
    exchange.response.status >= 200 &&
    exchange.response.status < 300 &&
    presentedAuthorization(exchange) !== undefined &&
    (Array.isArray(exchange.response.json) || isObject(exchange.response.json)),
  judge({ response }) {
    const directives = cacheDirectives(response.headers['cache-control']);
    const vary = splitList(response.headers['vary'] ?? '').map((v) => v.toLowerCase());
    if (directives.has('private') || directives.has('no-store') || directives.has('no-cache') || vary.includes('*') || vary.includes('authorization'))
      return undefined;
    const lifetime = Number(directives.get('s-maxage') ?? directives.get('max-age') ?? '0');
    const expires = Date.parse(response.headers['expires'] ?? '');
    const fresh = lifetime > 0 || (!Number.isNaN(expires) && expires > Date.now());
    const shared = directives.has('public') || (directives.has('s-maxage') && lifetime > 0) || (directives.has('must-revalidate') && fresh);
    return shared
      ? {
          problem: `an answer with pet data to a request with the key says Cache-Control: ${response.headers['cache-control']}, so shared caches may give it to requests without a key`,
        }
      : undefined;
  },
};

/** RFC 9110 §10.2.2: Location is one URI-reference; on a 201 it names the created pet, when it names a pet at all. */
const location: AnswerRule = {
  id: 'http.location',
  family: 'http',
  title: 'a Location field is a URI reference, and on a 201 it names the pet created',
  requirement:
    'The Location field value consists of a single URI-reference (RFC 9110 §10.2.2); on a 201 it identifies the primary resource created (§15.3.2), so a Location that names a pet under the base path names the one the 201 returns (seed §4.2: the service-assigned id).',
  section: 'RFC 9110 §10.2.2, §15.3.2; seed §4.2',
  applies: ({ response }) => response.headers['location'] !== undefined,
  judge({ request, response }, ctx) {
    const value = response.headers['location']!;
    let url: URL;
    try {
      url = new URL(value, ctx.client.baseUrl + request.path);
    } catch {
      return { problem: `Location: ${value} is not a URI reference` };
    }
    const pet = response.json;
    if (response.status !== 201 || !isObject(pet) || typeof pet['id'] !== 'bigint') return undefined;
    const named = new RegExp(`^${basePathOf(ctx.client.baseUrl)}/pets/(-?\\d+)$`).exec(url.pathname)?.[1];
    return named === undefined || BigInt(named) === pet['id']
      ? undefined
      : { problem: `a 201 for pet ${pet['id']} says Location: ${value}, which names pet ${named}` };
  },
};

export const HTTP_RULES: readonly AnswerRule[] = [date, challenge, allow, partialContent, notModified, noContentLength, sharedCache, location];
