/**
 * http (RFC 9110 §8.8, RFC 9745 §4): dates and validators that contradict
 * what the same run saw. A Last-Modified after the answer's own Date, a
 * strong entity tag that stayed while the content it stands for changed,
 * a Sunset before the Deprecation it ends: each is a statement the answers
 * themselves disprove, so no knowledge of the target's store is needed.
 */
import { fieldOf, type Exchange } from '../client.js';
import { parseHttpDate } from '../http-date.js';
import type { AnswerRule, RuleFinding } from './rules.js';

/**
 * The instant an HTTP-date names, in any of RFC 9110 §5.6.7's three forms, a recipient reads them all; undefined for
 * any other text, which Date.parse alone would read leniently ("@1.5" is a day of 2001 to it).
 */
const HTTP_DATE =
  /^(?:[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT|[A-Z][a-z]{5,8}, \d{2}-[A-Z][a-z]{2}-\d{2} \d{2}:\d{2}:\d{2} GMT|[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4})$/;
export function httpDate(value: string | undefined): number | undefined {
  const text = value?.trim() ?? '';
  const at = HTTP_DATE.test(text) ? parseHttpDate(text) : Number.NaN;
  return Number.isNaN(at) ? undefined : at;
}

/** RFC 9110 §8.8.2.1: no Last-Modified later than the Date of the same answer. */
const lastModified: AnswerRule = {
  id: 'http.last-modified',
  family: 'http',
  title: 'no answer says its representation was last modified after the answer was sent (Last-Modified not later than Date)',
  requirement:
    "An origin server with a clock MUST NOT generate a Last-Modified date that is later than the server's time of message origination (Date); if the last modification time derived from implementation-specific metadata evaluates to some time in the future, according to the origin server's clock, then the origin server MUST replace that value with the message origination date (RFC 9110 §8.8.2.1).",
  section: 'RFC 9110 §8.8.2.1, §6.6.1',
  // Without a Date there is no clock of the server's to compare with (http.date judges its absence); a value that is
  // no HTTP-date says nothing about time.
  applies: ({ response }) => httpDate(response.headers['last-modified']) !== undefined && httpDate(response.headers['date']) !== undefined,
  judge({ response }) {
    const modified = response.headers['last-modified']!;
    const date = response.headers['date']!;
    return httpDate(modified)! > httpDate(date)! ? { problem: `Last-Modified: ${modified} is later than the answer's own Date: ${date}` } : undefined;
  },
};

/** What one strong entity tag was first seen standing for, per method and target. */
interface TagSeen {
  readonly text: string;
  readonly exchange: Exchange;
}

const STRONG_TAG = /^"[^"]*"$/;

/**
 * RFC 9110 §8.8.1, §8.8.3: a strong tag changes whenever the content of a 200 to GET would. Its memory is the run's
 * own: built here, once per run, so no tag of one run meets the answers of the next.
 */
function strongValidator(): AnswerRule {
  const seen = new Map<string, TagSeen>();
  return {
    id: 'http.strong-validator',
    family: 'http',
    title: 'a strong ETag never stands for two different contents of the same target',
    requirement:
      'A "strong validator" is representation metadata that changes value whenever a change occurs to the representation data that would be observable in the content of a 200 (OK) response to GET (RFC 9110 §8.8.1); if an origin server provides an entity tag for a representation and its generation does not satisfy all of the characteristics of a strong validator, the origin server MUST mark the entity tag as weak by prefixing its opaque value with "W/" (§8.8.3). So two 200s to the same request target with the same strong ETag carry the same content.',
    section: 'RFC 9110 §8.8.1, §8.8.3',
    // Only answers whose content was read whole: a coding the client could not undo leaves bytes, not the content.
    applies: ({ request, response }, ctx) =>
      response.status === 200 &&
      STRONG_TAG.test((response.headers['etag'] ?? '').trim()) &&
      fieldOf(request, 'authorization') === ctx.client.authorization &&
      response.undecodable === undefined &&
      response.unsupportedCoding === undefined,
    judge(exchange): RuleFinding | undefined {
      const { request, response } = exchange;
      const tag = response.headers['etag']!.trim();
      const key = `${request.method} ${request.fromOrigin ? '' : '(base)'}${request.path} ${tag}`;
      const first = seen.get(key);
      if (first === undefined) {
        seen.set(key, { text: response.text, exchange });
        return undefined;
      }
      if (first.text === response.text) return undefined;
      return {
        problem: `${request.method} ${request.path} was answered 200 twice with ETag: ${tag}, but with different content (${describeChange(first.text, response.text)}): a strong tag that stays while the content changes is a weak one, which MUST be marked W/`,
        kind: `strong tag kept for changed content of ${request.method} ${request.path.split('?')[0]}`,
      };
    },
  };
}

/** Where two texts part, briefly, so the report shows what changed under the same tag. */
function describeChange(before: string, after: string): string {
  let at = 0;
  while (at < before.length && before[at] === after[at]) at++;
  const excerpt = (text: string) => JSON.stringify(text.slice(Math.max(0, at - 10), at + 30));
  return `${before.length} then ${after.length} characters, first differing at ${at}: ${excerpt(before)} then ${excerpt(after)}`;
}

/**
 * The instant a Deprecation field names: RFC 9745 §2.1's structured date (`@<seconds>`), or the HTTP-date of its drafts;
 * `true` (its drafts' "deprecated now") names none to compare.
 */
export function deprecationDate(value: string): number | undefined {
  const text = value.trim();
  return /^@-?\d{1,15}$/.test(text) ? Number(text.slice(1)) * 1000 : httpDate(text);
}

/** RFC 9745 §4: a resource is not removed before it is deprecated. */
const sunsetAfterDeprecation: AnswerRule = {
  id: 'http.sunset-after-deprecation',
  family: 'http',
  title: 'an answer that carries both Deprecation and Sunset never names a Sunset earlier than the Deprecation',
  requirement:
    'The timestamp given in the Sunset HTTP header field MUST NOT be earlier than the one given in the Deprecation header field (RFC 9745 §4); Sunset is an HTTP-date (RFC 8594 §3), Deprecation a structured date (RFC 9745 §2.1). The seed deprecates getPet and removes it on 5 December 2030 (§4.3, §9).',
  section: 'RFC 9745 §4; RFC 8594 §3; seed §4.3, §9',
  applies: ({ response }) => httpDate(response.headers['sunset']) !== undefined && deprecationDate(response.headers['deprecation'] ?? '') !== undefined,
  judge({ response }) {
    const { sunset, deprecation } = response.headers as { sunset: string; deprecation: string };
    return httpDate(sunset)! < deprecationDate(deprecation)!
      ? { problem: `Sunset: ${sunset} is earlier than Deprecation: ${deprecation} (${new Date(deprecationDate(deprecation)!).toUTCString()})` }
      : undefined;
  },
};

/** The rules of one run: call once per run, as the strong-validator rule remembers the run's tags. */
export function validatorRules(): AnswerRule[] {
  return [lastModified, strongValidator(), sunsetAfterDeprecation];
}
