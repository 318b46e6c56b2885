/**
 * leaks (seed §5): the API key is a secret, so no answer may give it away,
 * and a refusal may not tell how close a guess came.
 *
 * - The valid key never appears in a response header or an error body
 *   (a debugging message left in, a header that reflects the credential). The
 *   one exception is an echo of a presented credential that merely contains
 *   the key (`Bearer <key>x`): the client sent that text itself. Pet bodies
 *   are data and are not searched.
 * - Wrong keys of the key's length are refused alike whichever position
 *   differs: an answer that changes when a guess shares the key's start or
 *   end is an oracle for finding the key one character at a time. Every one
 *   must be a 401 (§5.3: a failure otherwise); a code, message or challenge
 *   that differs is an advisory, because the seed leaves the set of codes
 *   open and a correct service may tell a malformed key (one that breaks a
 *   format, as a changed first character can) from an unknown one. RFC 6750
 *   §3.1 lets a server tell a missing credential from an invalid one, so only
 *   wrong keys are compared with each other. Two unrelated wrong keys are
 *   asked first: what differs between them (a request id, a time) is not
 *   compared.
 */
import fc from 'fast-check';
import type { JsonValue } from '../../spec/json/index.js';
import type { OperationDescriptor } from '../../spec/operations.js';
import { fillPath, invalidBodyExamples, queryParameters, sampleValidBody } from '../arbitraries/requests.js';
import { NothingToExercise, propertyCheck } from '../check.js';
import { replaceAt, replaceMiddle } from '../key-forms.js';
import { fieldOf, type Exchange, type WireRequest, type WireResponse } from '../client.js';
import { Violation, type Check, type CheckContext } from '../vocabulary.js';
import { ruleCheck, type AnswerRule } from './rules.js';
import { someExistingId } from './family-requests.js';

export const SECTION = '§5 Authentication';

/** What no answer may carry: said once, for the run's checks and the proxy's judge. */
export const KEY_REQUIREMENT =
  'Every operation requires the API key as a bearer credential (§5): the key is a secret between the client and the service, so no answer, to a request with or without it, carries it in a header or an Error message.';

/** Shorter keys would match ordinary words of an answer (as in key-forms.ts). */
export const MIN_KEY_LENGTH = 6;

type Sent = { request: WireRequest; response: WireResponse };

/** Where the key shows in an answer that should not carry it, or undefined. */
export function keyLeak(apiKey: string, { request, response }: Sent): string | undefined {
  if (apiKey.length < MIN_KEY_LENGTH) return undefined;
  // Two Authorization fields are judged as their values joined: what a server that combines them sees.
  const presented = fieldOf(request, 'authorization') ?? '';
  // The client's own text echoed back: a near miss that contains the key.
  if (presented.includes(apiKey) && !isExactly(presented, apiKey)) return undefined;
  for (const [name, value] of Object.entries(response.headers)) {
    if (value.includes(apiKey)) return `the ${name} header of the answer holds the API key`;
  }
  if ((response.status < 200 || response.status > 299) && response.text.includes(apiKey)) {
    return `the body of the ${response.status} answer holds the API key`;
  }
  return undefined;
}

/** Whether an Authorization field is the key itself (RFC 9110 §11.1: the scheme's case and the spaces after it do not matter). */
function isExactly(presented: string, apiKey: string): boolean {
  const match = /^bearer +(.*)$/i.exec(presented.trim());
  return match?.[1] === apiKey;
}

export function leaksChecks(ctx: CheckContext): Check[] {
  // Every answer of the run is searched, whichever family asked, from now on.
  const observed = new Map<string, Sent>();
  ctx.client.observe((exchange: Exchange) => {
    if (observed.has(exchange.request.operationId)) return;
    if (keyLeak(ctx.options.apiKey, exchange)) observed.set(exchange.request.operationId, exchange);
  });
  const guarded = ctx.operations.filter((op) => op.requiresAuth);
  return [
    ...guarded.map((op) => keyInAnswersCheck(op, observed)),
    ...guarded.filter((op) => op.method === 'GET').map(nearMissCheck),
    ruleCheck(internals, ctx),
  ];
}

/**
 * What an error answer must not show of the code behind it: a stack trace or
 * a source path, a database's own error. Each pattern is the shape one
 * runtime prints, so a message that only mentions a word does not match.
 */
const INTERNALS: readonly { readonly what: string; readonly pattern: RegExp }[] = [
  { what: 'a JavaScript stack trace', pattern: /\n\s*at \S+ \(?[^\n]*:\d+:\d+\)?|\bat (?:async )?[\w.<>$]+ \((?:file:\/\/|\/|node:)[^)]*:\d+:\d+\)/ },
  { what: 'a Python traceback', pattern: /Traceback \(most recent call last\)|File "[^"]+", line \d+/ },
  { what: 'a Java stack trace', pattern: /\bat [\w$.]+\([\w$]+\.(?:java|kt|scala):\d+\)/ },
  { what: 'a Go panic', pattern: /goroutine \d+ \[|panic: runtime error/ },
  { what: 'a .NET stack trace', pattern: /\bat [\w.]+\(.*\) in [^\n]+:line \d+/ },
  { what: 'a source path inside node_modules or site-packages', pattern: /[\\/](?:node_modules|site-packages)[\\/]/ },
  { what: 'a database error', pattern: /SQLSTATE\[|\bORA-\d{5}\b|syntax error at or near|SQLITE_ERROR|duplicate key value violates|MongoServerError/ },
];

export const internals: AnswerRule = {
  id: 'leaks.internals',
  family: 'leaks',
  title: 'no error answer shows the code behind it (a stack trace, a source path, a database error)',
  requirement:
    "An error carries a human-readable description (§7 Error.message), not the service's internals: a stack trace, source paths or a database's own error in an answer tell an attacker what runs behind the interface (OWASP API8:2023, security misconfiguration).",
  section: 'seed §7; OWASP API8:2023',
  applies: ({ response }) => response.status >= 400 && response.text.length > 0,
  judge({ request, response }) {
    const shown = internalsShown(response);
    return shown ? { problem: `the ${response.status} answer to ${request.method} ${request.path} shows ${shown}`, kind: shown } : undefined;
  },
};

/** What of the code behind it an answer's body shows (`a Java stack trace`…), or undefined. */
export function internalsShown(response: Pick<WireResponse, 'text' | 'json'>): string | undefined {
  const text = readableText(response);
  return INTERNALS.find(({ pattern }) => pattern.test(text))?.what;
}

/**
 * An answer's text as the one reading it sees it: the text as sent, and the
 * strings of a JSON body with their escapes undone. In JSON text a stack
 * trace's line breaks, tabs and quotes are `\n`, `\t` and `\"`, which
 * the patterns (written for the runtime's own output) would not match: a
 * Java trace's `\tat` has no word boundary before its `at`.
 */
function readableText(response: Pick<WireResponse, 'text' | 'json'>): string {
  const strings: string[] = [];
  const collect = (value: JsonValue | undefined): void => {
    if (typeof value === 'string') strings.push(value);
    else if (Array.isArray(value)) value.forEach(collect);
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(collect);
  };
  collect(response.json);
  return [response.text, ...strings].join('\n');
}

interface Probe {
  readonly label: string;
  readonly auth: string | null | undefined;
  readonly path: string;
  readonly body?: string;
}

function keyInAnswersCheck(op: OperationDescriptor, observed: ReadonlyMap<string, Sent>): Check {
  let id: string | undefined;
  return propertyCheck<number>({
    id: `leaks.${op.operationId}.key`,
    family: 'leaks',
    operationId: op.operationId,
    title: `no answer of ${op.operationId} holds the API key (error messages, headers), whatever the request`,
    requirement: KEY_REQUIREMENT,
    seedSection: SECTION,
    writes: op.method !== 'GET',
    arbitrary: (c) => fc.nat({ max: probesOf(c, op, '1').length - 1 }),
    examples: (c) => probesOf(c, op, '1').map((_, i) => i),
    runs: () => 1,
    async predicate(c, index) {
      if (c.options.apiKey.length < MIN_KEY_LENGTH)
        throw new NothingToExercise(`the API key is shorter than ${MIN_KEY_LENGTH} characters: too short to tell apart from ordinary text in an answer`);
      const seen = observed.get(op.operationId);
      if (seen) throw new Violation(`${keyLeak(c.options.apiKey, seen)!} (seen on a request of this run)`, seen);
      id ??= op.parameters.some((p) => p.in === 'path') ? ((await someExistingId(c, 'leaks')) ?? '1') : '1';
      const probe = probesOf(c, op, id)[index]!;
      const sent = await c.send('leaks', {
        method: op.method,
        path: probe.path,
        operationId: op.operationId,
        ...(probe.auth !== undefined ? { auth: probe.auth } : {}),
        ...(probe.body !== undefined ? { body: probe.body } : {}),
      });
      const leak = keyLeak(c.options.apiKey, sent);
      if (leak) throw new Violation(`${leak} (${probe.label})`, sent);
    },
  });
}

/** Requests of every kind an operation can get: refused credentials, invalid input with the key, and a valid request. */
export function probesOf(c: CheckContext, op: OperationDescriptor, id: string): Probe[] {
  const key = c.options.apiKey;
  const params = Object.fromEntries(op.parameters.filter((p) => p.in === 'path').map((p) => [p.name, id]));
  const path = fillPath(op.path, params);
  const valid = op.requestBody ? sampleValidBody(op, c.options.namePrefix, c.options.seed).text : undefined;
  const withBody = (probe: Omit<Probe, 'path'>): Probe => ({ path, ...(valid !== undefined ? { body: valid } : {}), ...probe });
  const wrong = sameLengthWrongKeys(key);
  const probes: Probe[] = [
    withBody({ label: 'no Authorization header', auth: null }),
    withBody({ label: 'a wrong key of the same length', auth: `Bearer ${wrong[0]!.key}` }),
    withBody({ label: 'the key with its last character changed', auth: `Bearer ${wrong[2]!.key}` }),
    withBody({ label: 'the key without a scheme', auth: key }),
    withBody({ label: 'the valid key', auth: undefined }),
  ];
  if (op.requestBody) {
    for (const body of invalidBodyExamples(op, c.options.namePrefix, c.options.seed).slice(0, 4)) {
      probes.push({ label: `the valid key and an invalid body (${body.label})`, auth: undefined, path, body: body.text });
    }
  }
  for (const parameter of queryParameters(op)) {
    probes.push({ label: `the valid key and an invalid ${parameter.name}`, auth: undefined, path: `${path}?${encodeURIComponent(parameter.name)}=%00invalid` });
  }
  if (Object.keys(params).length > 0) {
    probes.push({
      label: 'the valid key and an id that is not an integer',
      auth: undefined,
      path: fillPath(op.path, Object.fromEntries(Object.keys(params).map((n) => [n, 'not-an-id']))),
    });
  }
  return probes;
}

/**
 * Wrong keys as long as the key, from the key's own characters: two that
 * share nothing with it (to learn what varies between any two refusals), then
 * three that differ from it in one position only (first, last, middle).
 */
export function sameLengthWrongKeys(apiKey: string): { label: string; key: string }[] {
  const chars = [...apiKey];
  const unlike = (a: string, b: string) => chars.map((c) => (c === a ? b : a)).join('');
  return [
    { label: 'an unrelated wrong key', key: unlike('z', 'y') },
    { label: 'another unrelated wrong key', key: unlike('x', 'w') },
    { label: 'the key with its last character changed', key: replaceAt(apiKey, -1) },
    { label: 'the key with its first character changed', key: replaceAt(apiKey, 0) },
    { label: 'the key with its middle character changed', key: replaceMiddle(apiKey) },
  ];
}

/** What a refusal says, with the presented token itself taken out (an echo of it is not a hint). */
function refusalOf(response: WireResponse, token: string): { status: number; code: string; message: string; challenge: string } {
  const body = response.json;
  const field = (name: string) =>
    body !== null && typeof body === 'object' && !Array.isArray(body) && typeof body[name] === 'string' ? (body[name] as string) : '';
  const scrub = (text: string) => text.split(token).join('<token>');
  return {
    status: response.status,
    code: scrub(field('code')),
    message: scrub(field('message') || response.text),
    challenge: scrub(response.headers['www-authenticate'] ?? ''),
  };
}

function nearMissCheck(op: OperationDescriptor): Check {
  let id: string | undefined;
  return propertyCheck<number>({
    id: `leaks.${op.operationId}.near-miss`,
    family: 'leaks',
    operationId: op.operationId,
    title: `${op.operationId} refuses every wrong key of the key's length with 401, however much of the key it shares (a refusal that tells how close a guess came is an advisory)`,
    requirement:
      'A missing or invalid key gets 401 with an Error body (§5.3), a near miss as much as any other wrong key; a refusal whose code or message changes when a wrong key shares the start, end or middle of the valid one tells a guesser they are close (an advisory: the seed leaves the codes open).',
    seedSection: SECTION,
    writes: false,
    // One case: the five keys are compared with each other.
    arbitrary: () => fc.constant(0),
    runs: () => 1,
    async predicate(c) {
      const wrong = sameLengthWrongKeys(c.options.apiKey);
      if ([...c.options.apiKey].length < 4) throw new NothingToExercise('the API key is shorter than 4 characters: no near miss of it tells anything');
      id ??= op.parameters.some((p) => p.in === 'path') ? ((await someExistingId(c, 'leaks')) ?? '1') : '1';
      const path = fillPath(op.path, Object.fromEntries(op.parameters.filter((p) => p.in === 'path').map((p) => [p.name, id!])));
      const answers: { label: string; sent: Sent; refusal: ReturnType<typeof refusalOf> }[] = [];
      for (const { label, key } of wrong) {
        const sent = await c.send('leaks', { method: op.method, path, operationId: op.operationId, auth: `Bearer ${key}` });
        answers.push({ label, sent, refusal: refusalOf(sent.response, key) });
      }
      const [a, b, ...near] = answers as [(typeof answers)[0], (typeof answers)[0], ...(typeof answers)[0][]];
      for (const answer of [a, b, ...near]) {
        if (answer.refusal.status !== 401) throw new Violation(`${answer.label} is answered ${answer.refusal.status}, not 401`, answer.sent);
      }
      // Only what two unrelated wrong keys agree on is compared.
      const stable = (['code', 'message', 'challenge'] as const).filter((part) => a.refusal[part] === b.refusal[part]);
      for (const answer of near) {
        const differs = stable.find((part) => answer.refusal[part] !== a.refusal[part]);
        c.unspecified(
          {
            decision: 'uniform-refusal',
            family: 'leaks',
            operationId: op.operationId,
            seed: '§7 "The set of values of `code`: not shown"; §5.3 asks only for 401 with an Error body',
            observed: differs
              ? `${answer.label} is refused differently from an unrelated wrong key (${differs}: ${JSON.stringify(answer.refusal[differs])} against ${JSON.stringify(a.refusal[differs])}), which tells a guesser how close they came`
              : 'every wrong key is refused alike',
            referenceBehaviour: 'every wrong key gets the same refusal, however much of the valid key it shares',
            ...answer.sent,
          },
          differs === undefined,
        );
        if (differs) return;
      }
    },
  });
}
