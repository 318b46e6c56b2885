/**
 * http (RFC 9110 §10.2.2, §8.7, §15.3.2; RFC 8288): the resources that the
 * run's answers name exist. A 201's Location names the pet it created, a
 * Link names the successor or an alternate, a Content-Location names where
 * the content also lives; a client follows them, so a name that leads to
 * nothing is a wrong answer, however well-formed. The check hears every
 * exchange of the run and, once every other check has ended, reads each
 * name once (a few at most) with the key, on the target's own origin only:
 * the key never travels to another host, whatever an answer says.
 */
import { basePathOf, joinUrl, RateLimited, TransportError, type Exchange, type WireRequest, type WireResponse } from '../client.js';
import { idOf } from '../knowledge.js';
import type { Check, CheckContext, Failure } from '../vocabulary.js';
import { getOperation } from './family-requests.js';

/** Distinct names read at most: enough to show a defect, few enough for a shared staging. */
const MAX_READS = 20;
/** The link relations whose target a client is sent to, and so must exist (RFC 8288 §2.1.1; RFC 5829; RFC 9745 §3). */
const FOLLOWED_RELATIONS = new Set(['successor-version', 'alternate', 'deprecation']);

type Field = 'Location' | 'Link' | 'Content-Location';

/** A name one answer gave, resolved against the request it answered. */
export interface Reference {
  readonly field: Field;
  /** As the answer wrote it (one link-value's target for Link). */
  readonly value: string;
  readonly url: URL;
  readonly exchange: Exchange;
  /** performance.now() when it was heard: a pet named by a 201 may take the settle window to be readable. */
  readonly at: number;
  /** The id of the pet a 201 returned: its Location must serve that pet. */
  readonly petId?: string;
}

const REFERENCES = {
  id: 'http.references',
  family: 'http',
  operationId: '*',
  title:
    "the resources the answers name exist: a 201's Location serves the pet created, a Link's successor, alternate or deprecation target and a 2xx's Content-Location are not missing",
  requirement:
    'On a 201, the Location field identifies the primary resource created by the request (RFC 9110 §15.3.2, §10.2.2), so a GET of it with the key serves that pet; a Link names a target resource a client may follow (RFC 8288 §2, §3.3: successor-version, RFC 5829; alternate; deprecation, RFC 9745 §3), so it is not 404 or 410; a Content-Location on a 2xx names a resource of which the content is a representation (RFC 9110 §8.7), so a GET of it succeeds. Names on another origin are not read: the key is never sent there.',
  seedSection: 'RFC 9110 §8.7, §10.2.2, §15.3.2; RFC 8288 §3; RFC 9745 §3; seed §4.2',
} as const;

/** The base URL's origin and what a request's path is relative to. */
function requestUrl(baseUrl: string, request: WireRequest): string {
  return request.fromOrigin ? new URL(request.path, baseUrl).href : joinUrl(baseUrl, request.path);
}

/** `<uri>; rel="a b"` members of a Link field (RFC 8288 §3) whose relation is one a client follows. */
export function followedLinks(value: string): string[] {
  const out: string[] = [];
  for (const [, target, params] of value.matchAll(/<([^>]*)>([^<]*)/g)) {
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^;,\s]+))/i.exec(params ?? '');
    const relations = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/);
    if (relations.some((r) => FOLLOWED_RELATIONS.has(r))) out.push(target!.trim());
  }
  return out;
}

/** The names one exchange gives that this check reads, each resolved against the request's URL. */
export function referencesIn(exchange: Exchange, baseUrl: string, at: number): Reference[] {
  const { request, response } = exchange;
  const named: { field: Field; value: string }[] = [];
  const location = response.headers['location'];
  if (response.status === 201 && location !== undefined) named.push({ field: 'Location', value: location.trim() });
  for (const value of followedLinks(response.headers['link'] ?? '')) named.push({ field: 'Link', value });
  const contentLocation = response.headers['content-location'];
  if (response.status >= 200 && response.status < 300 && contentLocation !== undefined)
    named.push({ field: 'Content-Location', value: contentLocation.trim() });
  const base = requestUrl(baseUrl, request);
  const petId = response.status === 201 ? idOf(response.json) : undefined;
  return named.flatMap(({ field, value }) => {
    let url: URL;
    try {
      url = new URL(value, base);
    } catch {
      // Not a URI reference: http.location says so; there is nothing to read.
      return [];
    }
    return [{ field, value, url, exchange, at, ...(field === 'Location' && petId !== undefined ? { petId } : {}) }];
  });
}

/** Up to `max` distinct names, taking each field in turn, so many 201s do not crowd out the one Link. */
export function toRead(heard: readonly Reference[], max = MAX_READS): Reference[] {
  const byField = new Map<Field, Reference[]>();
  const seen = new Set<string>();
  for (const reference of heard) {
    if (seen.has(reference.url.href)) continue;
    seen.add(reference.url.href);
    byField.set(reference.field, [...(byField.get(reference.field) ?? []), reference]);
  }
  const queues = [...byField.values()];
  const out: Reference[] = [];
  while (out.length < max && queues.some((q) => q.length > 0)) for (const q of queues) if (q.length > 0 && out.length < max) out.push(q.shift()!);
  return out;
}

/** Keeps the first distinct names of each field, as many as could be read: a long run creates thousands of pets. */
export function createHearing(baseUrl: string): { heard: Reference[]; observe(exchange: Exchange): void } {
  const heard: Reference[] = [];
  const known = new Set<string>();
  const perField = new Map<Field, number>();
  return {
    heard,
    observe(exchange) {
      for (const reference of referencesIn(exchange, baseUrl, performance.now())) {
        const count = perField.get(reference.field) ?? 0;
        if (known.has(reference.url.href) || count >= MAX_READS) continue;
        known.add(reference.url.href);
        perField.set(reference.field, count + 1);
        heard.push(reference);
      }
    },
  };
}

export function referencesCheck(ctx: CheckContext): Check {
  const { heard, observe } = createHearing(ctx.client.baseUrl);
  ctx.client.observe(observe);
  return {
    ...REFERENCES,
    writes: false,
    afterAll: true,
    async run(c) {
      const base = { id: REFERENCES.id, family: REFERENCES.family, operationId: REFERENCES.operationId, title: REFERENCES.title };
      if (heard.length === 0)
        return {
          ...base,
          runs: 0,
          status: 'not run',
          note: 'no answer of the run named a resource (no Location on a 201, no followed Link, no Content-Location)',
        };
      const { reads, elsewhere, unreadable } = partition(c, toRead(heard));
      const notes = [
        elsewhere.length > 0
          ? `not read, as the key stays with the target: ${[...new Set(elsewhere.map((r) => r.url.origin))].join(', ')} (another origin)`
          : '',
        unreadable ? `not read: ${unreadable}` : '',
      ].filter(Boolean);
      const note = notes.length > 0 ? { note: notes.join('; ') } : {};
      const { sent, failures, cut } = await readAll(c, reads);
      const outcome = { ...base, runs: sent, requests: sent, ...note };
      if (failures.length > 0) {
        const [first, ...rest] = failures as [Failure, ...Failure[]];
        const more = rest.length > 0 ? ` (and ${rest.length} more)` : '';
        return { ...outcome, status: 'failed', failure: { ...first, message: first.message + more }, extraFailures: rest };
      }
      if (sent === 0)
        return {
          ...outcome,
          status: 'skipped',
          note: [cut ? `the reads got no answer: ${cut}` : '', ...notes].filter(Boolean).join('; ') || 'nothing to read',
        };
      return { ...outcome, status: 'passed' };
    },
  };
}

/** Reads each name in turn, within the run's time; a target that stops answering ends the reads, what was read is judged. */
async function readAll(c: CheckContext, reads: readonly Reference[]): Promise<{ sent: number; failures: Failure[]; cut?: string }> {
  const failures: Failure[] = [];
  let sent = 0;
  for (const reference of reads) {
    if (c.timeLeft() <= 0) break;
    try {
      const read = await readReference(c, reference);
      sent++;
      const problem = judgeRead(reference, read.response);
      if (problem !== undefined) failures.push(failureOf(reference, read, problem));
    } catch (error) {
      if (!(error instanceof TransportError || error instanceof RateLimited)) throw error;
      return { sent, failures, cut: error.message };
    }
  }
  return { sent, failures };
}

/** Which names are read: those on the target's origin, and, for a Location, only while getPet still serves. */
function partition(c: CheckContext, chosen: readonly Reference[]): { reads: Reference[]; elsewhere: Reference[]; unreadable?: string } {
  const origin = new URL(c.client.baseUrl).origin;
  const elsewhere = chosen.filter((r) => r.url.origin !== origin);
  const local = chosen.filter((r) => r.url.origin === origin);
  const get = getOperation(c);
  // Past getPet's removal date a pet is no longer read by id (404 or 410 is the seed's answer, §9): its Location can't be followed.
  const removed = get?.sunset !== undefined && c.targetNow() >= get.sunset.getTime();
  const reads = removed ? local.filter((r) => r.field !== 'Location') : local;
  return { reads, elsewhere, ...(reads.length < local.length ? { unreadable: `the Locations, as ${get!.operationId} is past its removal date` } : {}) };
}

/** GET of the name with the key; a Location's pet is read again within the settle window while it is 404. */
function readReference(c: CheckContext, reference: Reference): Promise<{ request: WireRequest; response: WireResponse }> {
  const read = () =>
    c.send('http', {
      method: 'GET',
      path: reference.url.pathname + reference.url.search,
      fromOrigin: true,
      operationId: operationFor(c, reference.url),
      // What a name leads to is judged here alone (its path may be no operation of the interface at all).
      offSpec: true,
    });
  if (reference.field !== 'Location') return read();
  return c.readAfterWrite(read, (sent) => sent.response.status !== 404, reference.at);
}

/** The operation whose path the URL's path is, under the base path; else the check's own name. */
function operationFor(c: CheckContext, url: URL): string {
  const basePath = basePathOf(c.client.baseUrl);
  const path = url.pathname.startsWith(`${basePath}/`) ? url.pathname.slice(basePath.length) : undefined;
  const op = c.operations.find((o) => o.method === 'GET' && path !== undefined && new RegExp(`^${o.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path));
  return op?.operationId ?? REFERENCES.id;
}

/** What is wrong with what a name led to, if anything. */
export function judgeRead(reference: Reference, response: WireResponse): string | undefined {
  const { status } = response;
  if (reference.field === 'Location') {
    if (status !== 200) return `is answered ${status}`;
    const served = idOf(response.json);
    return reference.petId === undefined || served === reference.petId
      ? undefined
      : `serves ${served === undefined ? 'no pet' : `pet ${served}`}, not pet ${reference.petId}`;
  }
  if (reference.field === 'Content-Location') return status >= 200 && status < 300 ? undefined : `is answered ${status}`;
  return status === 404 || status === 410 ? `is answered ${status}` : undefined;
}

function failureOf(reference: Reference, read: { request: WireRequest; response: WireResponse }, problem: string): Failure {
  const { request, response } = reference.exchange;
  const created = reference.petId !== undefined ? ` for pet ${reference.petId}` : '';
  return {
    checkId: REFERENCES.id,
    family: REFERENCES.family,
    operationId: request.operationId,
    requirement: REFERENCES.requirement,
    seedSection: REFERENCES.seedSection,
    message: `the ${response.status}${created} to ${request.method} ${request.path} names ${reference.url.href} (${reference.field}: ${reference.value}), but GET ${read.request.path} with the key ${problem}: ${problem.startsWith('is answered') ? 'it names a resource that does not exist' : 'it names another resource than the one created'}`,
    request: read.request,
    response: read.response,
  };
}
