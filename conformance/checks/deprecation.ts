/**
 * deprecation (seed §4.3, §9): a deprecated operation keeps working until its
 * removal date, judged by the target's own clock (its Date header). Its
 * deprecation headers are not required (response headers are "not shown"),
 * but where present they must be right: `Deprecation` an RFC 9745 structured
 * date (`@<seconds>`), `Sunset` an HTTP-date (RFC 8594) on the removal day,
 * as an IMF-fixdate: RFC 9110 §5.6.7 has a sender generate no other form.
 * The forms of RFC 9745's drafts (`true`, an HTTP-date), which servers and
 * libraries written to them still send, say the same and are an advisory.
 * From the removal date on the operation may be gone: 404 or 410 with an
 * Error body.
 */
import { fillPath } from '../arbitraries/requests.js';
import { imfFixdate } from '../fields.js';
import { exampleCheck, expectErrorBody, expectStatus } from '../check.js';
import type { OperationDescriptor } from '../../spec/operations.js';
import { Violation, type Advisory, type Check, type CheckContext } from '../vocabulary.js';
import { someExistingId } from './family-requests.js';

const SECTION = '§4.3 Get an animal (deprecated), §9 Versioning';

// RFC 9745 §2.1: Deprecation = sf-date, i.e. "@" followed by an integer.
const SF_DATE = /^@-?\d{1,15}$/;

/** The instant an RFC 9745 structured date (`@<seconds>`) names; undefined when `value` is none. */
function structuredDate(value: string): number | undefined {
  return SF_DATE.test(value) ? Number(value.slice(1)) * 1000 : undefined;
}

/**
 * The Deprecation forms of RFC 9745's drafts (draft-dalal-deprecation-header, draft-ietf-httpapi-deprecation-header
 * up to -02): `true` (deprecated now) or an HTTP-date, an IMF-fixdate as a sender writes one. The instant it names, if any.
 */
function draftForm(value: string): { readonly at?: number } | undefined {
  if (value === 'true') return {};
  const at = imfFixdate(value);
  return at === undefined ? undefined : { at };
}

/** When a Deprecation field says the deprecation starts (now for `true`); undefined when it is no form of one. */
function deprecationInstant(value: string, now: number): number | undefined {
  const structured = structuredDate(value);
  if (structured !== undefined) return structured;
  const draft = draftForm(value);
  return draft === undefined ? undefined : (draft.at ?? now);
}

export function deprecationChecks(ctx: CheckContext): Check[] {
  return [...deprecatedOperationChecks(ctx), ...currentOperationChecks(ctx)];
}

/**
 * The operations the spec does not deprecate must not say they are: a
 * `Deprecation` date already reached (or `Sunset`) on them would send clients
 * away from the very replacement the seed names (§9 deprecates getPet only).
 * A Deprecation date in the future only announces, and is allowed.
 */
function currentOperationChecks(ctx: CheckContext): Check[] {
  return ctx.operations
    .filter((op) => !op.deprecated)
    .map((op) =>
      exampleCheck({
        ...notDeprecatedMeta(op),
        // Its POST carries a body the target must refuse, but a POST it is, and --read-only sends none.
        writes: op.method !== 'GET',
        async scenario(c) {
          // A request that creates nothing: a GET, or a body the seed requires to be refused.
          const sent = await c.send('deprecation', {
            method: op.method,
            path: op.path.replace(/\{[^}]+\}/g, '1'),
            operationId: op.operationId,
            ...(op.requestBody ? { body: '{}' } : {}),
          });
          const problem = undeclaredDeprecation(op, sent.response.headers, c.targetNow());
          if (problem) throw new Violation(problem, sent);
        },
      }),
    );
}

/** What a check that an operation the spec does not deprecate says no deprecation is. */
export function notDeprecatedMeta(op: OperationDescriptor) {
  return {
    id: `deprecation.${op.operationId}.not-deprecated`,
    family: 'deprecation',
    operationId: op.operationId,
    title: `${op.operationId} does not signal a deprecation the spec does not make`,
    requirement: 'Only GET /pets/{petId} is deprecated (§4.3, §9); the replacement is GET /pets.',
    seedSection: SECTION,
  } as const;
}

/** What one answer of an operation the spec does not deprecate says wrongly of its deprecation, judged at `now` (the target's time). */
export function undeclaredDeprecation(op: OperationDescriptor, headers: Readonly<Record<string, string>>, now: number): string | undefined {
  const { deprecation, sunset } = headers;
  const since = deprecation === undefined ? undefined : deprecationInstant(deprecation.trim(), now);
  if (deprecation !== undefined && (since === undefined || since <= now))
    return `${op.operationId} answers with Deprecation: ${deprecation}, but the spec does not deprecate it`;
  if (sunset !== undefined) return `${op.operationId} answers with Sunset: ${sunset}, but the spec schedules no removal for it`;
  return undefined;
}

/** What a check that a deprecated operation signals its deprecation says. */
export function signalsMeta(op: OperationDescriptor) {
  const removal = op.sunset;
  return {
    id: `deprecation.${op.operationId}.signals`,
    family: 'deprecation',
    operationId: op.operationId,
    title: `${op.operationId} works until ${removal?.toISOString().slice(0, 10) ?? 'its removal'} by the target's clock, with well-formed Deprecation/Sunset headers where present`,
    requirement: `The operation is marked deprecated and is scheduled for removal on ${removal?.toUTCString().slice(5, 16) ?? '(no date)'}; the replacement is ${op.replacement ?? '(none)'} (§4.3, §9).`,
    seedSection: SECTION,
  } as const;
}

/** An advisory of the deprecation family, without the exchange it was seen on. */
export type DeprecationAdvisory = Pick<Advisory, 'decision' | 'family' | 'operationId' | 'seed' | 'observed' | 'referenceBehaviour'>;

/**
 * What the deprecation headers of one answer of a deprecated operation say, in the order the check judges them: a
 * `problem` breaks the requirement; an `advisory` is a form the seed leaves open, `conforms` when it is this project's.
 */
export function deprecationSignals(
  op: OperationDescriptor,
  successorPath: string | undefined,
  headers: Readonly<Record<string, string>>,
): ({ readonly problem: string } | { readonly advisory: DeprecationAdvisory; readonly conforms: boolean })[] {
  const removal = op.sunset;
  const { deprecation, sunset, link } = headers;
  const out: ({ problem: string } | { advisory: DeprecationAdvisory; conforms: boolean })[] = [];
  if (deprecation !== undefined && structuredDate(deprecation.trim()) === undefined) {
    if (draftForm(deprecation.trim()) === undefined) return [{ problem: `Deprecation: ${deprecation} is not an RFC 9745 structured date such as @1735689600` }];
    out.push({
      advisory: {
        decision: 'deprecation-draft-form',
        family: 'deprecation',
        operationId: op.operationId,
        seed: 'RFC 9745 §2.1: Deprecation is a structured date (@<seconds>); its drafts spelled it "true" or an HTTP-date, which says the same to clients written to them',
        observed: `Deprecation: ${deprecation}`,
        referenceBehaviour: 'Deprecation: @1735689600',
      },
      conforms: false,
    });
  }
  if (sunset !== undefined) {
    // The obsolete RFC 850 and asctime forms are for a recipient to accept, not for a server to send (as the Date rule judges).
    const at = imfFixdate(sunset.trim());
    if (at === undefined)
      return [...out, { problem: `Sunset: ${sunset} is not an IMF-fixdate, the HTTP-date a sender generates (RFC 8594 §3, RFC 9110 §5.6.7)` }];
    if (removal && new Date(at).toISOString().slice(0, 10) !== removal.toISOString().slice(0, 10))
      return [...out, { problem: `Sunset: ${sunset} does not name the removal date ${removal.toUTCString()}` }];
    // A Sunset earlier than the Deprecation (RFC 9745 §4: MUST NOT) is judged on every answer by http.sunset-after-deprecation.
  }
  out.push({
    advisory: {
      decision: 'deprecation-headers',
      family: 'deprecation',
      operationId: op.operationId,
      seed: '§4 "Response headers of any operation: not shown"',
      observed: `Deprecation ${deprecation ?? '(absent)'}, Sunset ${sunset ?? '(absent)'}, Link ${link ?? '(absent)'}`,
      referenceBehaviour: `Deprecation: @<seconds>, Sunset: ${removal?.toUTCString() ?? '<the removal date>'} and Link: <…${successorPath ?? ''}>; rel="successor-version" on every answer`,
    },
    conforms: deprecation !== undefined && sunset !== undefined && link !== undefined && /rel="?successor-version"?/.test(link),
  });
  return out;
}

function deprecatedOperationChecks(ctx: CheckContext): Check[] {
  return ctx.operations
    .filter((op) => op.deprecated && op.parameters.some((p) => p.in === 'path'))
    .map((op) => {
      const idParam = op.parameters.find((p) => p.in === 'path')!;
      const removal = op.sunset;
      const successorPath = ctx.operations.find((o) => o.operationId === op.replacement)?.path;
      return exampleCheck({
        ...signalsMeta(op),
        writes: false,
        async scenario(c) {
          const id = await someExistingId(c, 'deprecation');
          const sent = await c.send('deprecation', { method: op.method, path: fillPath(op.path, { [idParam.name]: id ?? '1' }), operationId: op.operationId });
          const now = c.targetNow();
          const removed = removal !== undefined && now >= removal.getTime();
          if (!removed) {
            expectStatus(
              sent,
              id === undefined ? [200, 404] : [200],
              `${op.operationId} before its removal date (target clock ${new Date(now).toISOString()})`,
            );
          } else {
            expectStatus(sent, [200, 404, 410], `${op.operationId} after its removal date`);
            if (sent.response.status !== 200) expectErrorBody(sent);
          }
          for (const signal of deprecationSignals(op, successorPath, sent.response.headers)) {
            if ('problem' in signal) throw new Violation(signal.problem, sent);
            c.unspecified({ ...signal.advisory, ...sent }, signal.conforms);
          }
          if (sent.response.headers['date'] === undefined) return 'the target sends no Date header; its removal date was judged by the local clock';
          return undefined;
        },
      });
    });
}
