/**
 * One cause, one finding. When one defect makes many checks fail, the report
 * leads with the defect and lists the checks it explains. Failures are
 * grouped by what their own exchanges show, never by a guess at the
 * mechanism:
 * - an integer beyond 2^53 that the run sent and that came back as its
 *   nearest double (or a valid NewPet refused whose integer, as a double,
 *   lies beyond int64);
 * - a valid NewPet refused with the same status;
 * - no valid HTTP answer, said the same way;
 * - the same status answered without a valid Error body, or with the same
 *   wrong Content-Type.
 * A group is a cause when it explains failures of two checks or more.
 */
import { compileSchema } from '../spec/schema/validate.js';
import { parseJson } from '../spec/json/index.js';
import type { OperationDescriptor } from '../spec/operations.js';
import { fieldOf, type Exchange } from './client.js';
import type { Cause, Failure } from './vocabulary.js';

/** The integers beyond 2^53 the run sent in request bodies (as digits), gathered from every exchange. */
export interface SentIntegers {
  observe(exchange: Exchange): void;
  all(): ReadonlySet<string>;
}

const BEYOND_DOUBLE = 2n ** 53n;
const INT64_MAX = 2n ** 63n - 1n;
const INTEGER_TOKEN = /(?<![\w.])-?\d{16,20}(?![\d.eE])/g;

export function sentIntegers(): SentIntegers {
  const seen = new Set<string>();
  return {
    observe({ request }) {
      for (const match of request.body?.matchAll(INTEGER_TOKEN) ?? []) {
        const value = BigInt(match[0]);
        if ((value > BEYOND_DOUBLE || value < -BEYOND_DOUBLE) && value >= -INT64_MAX - 1n && value <= INT64_MAX) seen.add(match[0]);
      }
    },
    all: () => seen,
  };
}

/** How a double near `digits` may be written back: JavaScript's shortest form, its exact digits, and exponent forms (Python, Java). */
function doubleForms(digits: string): RegExp | undefined {
  const double = Number(digits);
  const [mantissa, exponent] = double.toExponential().split('e') as [string, string];
  const escaped = (text: string) => text.replace(/[.+-]/g, '\\$&');
  // A double that holds the integer exactly may still be written otherwise: JavaScript writes 2^62 + 64 as 4611686018427388000.
  const forms = [String(double), BigInt(double).toString()].filter((form) => form !== digits).map(escaped);
  return new RegExp(`(?<![\\d.])(${[...forms, `${escaped(mantissa)}[eE]\\+?${exponent.replace('+', '')}`].join('|')})(?![\\d])`);
}

interface Grouping {
  readonly key: string;
  readonly summary: string;
  readonly evidence: string;
}

export function diagnose(
  failures: readonly Failure[],
  sent: ReadonlySet<string>,
  create: OperationDescriptor | undefined,
): { failures: Failure[]; causes: Cause[] } {
  const validNewPet = create?.requestBody ? compileSchema(create.requestBody.schema) : undefined;
  const groups = new Map<string, { grouping: Grouping; members: number[] }>();
  failures.forEach((failure, index) => {
    const grouping = groupingOf(failure, sent, create, validNewPet);
    if (!grouping) return;
    const group = groups.get(grouping.key) ?? { grouping, members: [] };
    group.members.push(index);
    groups.set(grouping.key, group);
  });
  const causes: Cause[] = [];
  const causeOf = new Map<number, string>();
  for (const { grouping, members } of groups.values()) {
    const checkIds = [...new Set(members.map((i) => failures[i]!.checkId))];
    if (checkIds.length < 2) continue;
    const id = `cause-${causes.length + 1}`;
    causes.push({ id, summary: grouping.summary, evidence: grouping.evidence, checkIds, failures: members.length });
    for (const i of members) causeOf.set(i, id);
  }
  return { failures: failures.map((f, i) => (causeOf.has(i) ? { ...f, cause: causeOf.get(i)! } : f)), causes };
}

function groupingOf(
  failure: Failure,
  sent: ReadonlySet<string>,
  create: OperationDescriptor | undefined,
  validNewPet: ReturnType<typeof compileSchema> | undefined,
): Grouping | undefined {
  const { request, response } = failure;
  const shown = request ? `${request.method} ${request.path}${request.body !== undefined ? ` ${cutText(request.body, 200)}` : ''}` : '';
  const answered = response ? ` → ${response.status} ${cutText(response.text, 200)}` : '';
  // An integer the run sent, answered as its nearest double.
  if (response) {
    const own = new Set(request?.body ? [...request.body.matchAll(INTEGER_TOKEN)].map((m) => m[0]).filter((d) => sent.has(d)) : []);
    for (const digits of [...own, ...sent]) {
      const forms = doubleForms(digits);
      const found = forms?.exec(response.text);
      // An answer to another request (a list) may hold the rounded digits as a value the run sent itself.
      if (found && !response.text.includes(digits) && (own.has(digits) || !sent.has(found[1]!))) {
        return {
          key: 'int64-as-double',
          summary: `integers beyond 2^53 do not come back as sent: ${digits} was answered as ${found[1]}, which is ${digits} as a double-precision number (seed §2: int64)`,
          evidence: `${shown}${answered}`,
        };
      }
    }
  }
  // A valid NewPet refused.
  if (
    request &&
    response &&
    create &&
    request.method === create.method &&
    request.path === create.path &&
    response.status >= 400 &&
    response.status < 500 &&
    request.body !== undefined &&
    validNewPet
  ) {
    const parsed = parseJson(request.body);
    if (parsed.ok && validNewPet(parsed.value) === undefined && fieldOf(request, 'authorization') !== undefined) {
      const outside = [...request.body.matchAll(INTEGER_TOKEN)].map((m) => m[0]).find((d) => !inInt64(BigInt(Number(d))));
      if (outside)
        return {
          key: 'int64-as-double',
          summary: `integers beyond 2^53 do not come back as sent: a valid NewPet holding ${outside} was refused with ${response.status}; as a double, ${outside} is ${BigInt(Number(outside))}, beyond int64 (seed §2: int64)`,
          evidence: `${shown}${answered}`,
        };
      return {
        key: `refused-create ${response.status}`,
        summary: `valid NewPets are refused with ${response.status} (seed §4.2: 201)`,
        evidence: `${shown}${answered}`,
      };
    }
  }
  if (failure.message.startsWith('no valid HTTP answer')) {
    const said = failure.message.replace(/^no valid HTTP answer: /, '');
    return { key: `no-answer ${said.replace(/\d+/g, 'N')}`, summary: `no valid HTTP answer: ${said}`, evidence: shown };
  }
  const errorBody = /the (\d{3}) answer has no valid Error body: (.*)$/.exec(failure.message.split('\n')[0]!);
  if (errorBody) {
    return {
      key: `error-body ${errorBody[1]} ${errorBody[2]}`,
      summary: `${errorBody[1]} answers carry no valid Error body: ${errorBody[2]} (seed §7)`,
      evidence: `${shown}${answered}`,
    };
  }
  const contentType = /Content-Type is ([^,]+?), not application\/json/.exec(failure.message);
  if (contentType)
    return {
      key: `content-type ${contentType[1]}`,
      summary: `answers say Content-Type ${contentType[1]}, not application/json (seed §4)`,
      evidence: `${shown}${answered}`,
    };
  return undefined;
}

const inInt64 = (value: bigint): boolean => value >= -INT64_MAX - 1n && value <= INT64_MAX;

function cutText(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
