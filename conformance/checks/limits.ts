/**
 * limits (seed §4.1, §8): `limit` is at least 1, at most 100, 20 by default,
 * and a page never holds more pets than asked for. The bounds come from the
 * spec's page-size parameter. To make short pages meaningful the target is
 * first given more pets than the maximum page (within --max-writes); under
 * --read-only the same pages are read from whatever the target holds.
 */
import fc from 'fast-check';
import type { OperationDescriptor, ParameterDescriptor } from '../../spec/operations.js';
import { invalidParameterTexts, queryString, validBody } from '../arbitraries/requests.js';
import { integerRange } from '../arbitraries/schema.js';
import { expectErrorBody, expectStatus, propertyCheck } from '../check.js';
import { WriteBudgetExhausted } from '../client.js';
import { runPool } from '../pool.js';
import { Violation, type Check, type CheckContext, type Family } from '../vocabulary.js';
import { readPage } from './page.js';
import { createOperation, createPet, filterParameters, listOperation, pageSizeParameter } from './family-requests.js';

const SECTION = '§4.1 List animals, §8 Limits';

const populated = new WeakMap<object, Promise<void>>();

/** Makes sure the target holds more pets than the largest page, creating the difference (once per run). */
export function ensurePopulation(ctx: CheckContext, family: Family, op: OperationDescriptor, max: bigint): Promise<void> {
  let pending = populated.get(ctx.knowledge);
  if (!pending) {
    pending = (async () => {
      if (ctx.options.readOnly) return;
      const sent = await ctx.send(family, { method: 'GET', path: `${op.path}?${pageSizeParameter(op)!.name}=${max}`, operationId: op.operationId });
      const have = Array.isArray(sent.response.json) ? sent.response.json.length : 0;
      const needed = Number(max) + 1 - have;
      if (needed <= 0) return;
      const create = createOperation(ctx);
      if (!create) return;
      const bodies = fc.sample(validBody(create, ctx.options.namePrefix), { numRuns: needed, seed: ctx.options.seed });
      // Created over as many connections as the run may use: the order of
      // creation matters to nothing here, and one after another would hold
      // up every check of the family for a hundred round trips.
      try {
        await runPool(bodies, ctx.options.concurrency, (body) => createPet(ctx, family, body, 'setup'));
      } catch (error) {
        if (!(error instanceof WriteBudgetExhausted)) throw error;
      }
    })();
    populated.set(ctx.knowledge, pending);
  }
  return pending;
}

/** What a page size promises, for the limits family and the proxy's judge: at most `limit` pets, and its default. */
export function limitRequirements(size: ParameterDescriptor): { readonly atMost: string; readonly byDefault: string; readonly section: string } {
  const [min, max] = integerRange(size.schema);
  const fallback = defaultPageSize(size);
  return {
    atMost: `${size.name}: minimum ${min}, maximum ${max}; "Maximum number of animals returned" (§4.1, §8).`,
    byDefault: `${size.name} default ${fallback} (§4.1, §8).`,
    section: SECTION,
  };
}

/** The page size when a request names none: the parameter's default, else its maximum. */
export function defaultPageSize(size: ParameterDescriptor): bigint {
  return typeof size.schema['default'] === 'number' ? BigInt(size.schema['default'] as number) : integerRange(size.schema)[1];
}

export function limitsChecks(ctx: CheckContext): Check[] {
  const op = listOperation(ctx);
  const size = op && pageSizeParameter(op);
  if (!op || !size) return [];
  const [min, max] = integerRange(size.schema);
  const fallback = defaultPageSize(size);
  const filters = filterParameters(op);
  const filterValue = fc.record(Object.fromEntries(filters.map((f) => [f.name, fc.constantFrom(...((f.schema['enum'] ?? []) as string[]))])), {
    requiredKeys: [],
  }) as fc.Arbitrary<Record<string, string>>;
  // They create pets only to fill the largest page; under --read-only they
  // read whatever the target holds instead (ensurePopulation creates nothing).
  const base = { family: 'limits', operationId: op.operationId, seedSection: SECTION, writes: false } as const;

  async function page(c: CheckContext, limit: bigint | undefined, filter: Record<string, string>) {
    await ensurePopulation(c, 'limits', op!, max);
    const query = { ...(limit === undefined ? {} : { [size!.name]: String(limit) }), ...filter };
    const request = { method: 'GET', path: op!.path + queryString(query), operationId: op!.operationId };
    await readPage(c, 'limits', request, { limit: limit ?? fallback, filters: filter }, `listing with ${JSON.stringify(query)}`);
  }

  return [
    propertyCheck({
      ...base,
      id: `limits.${op.operationId}.at-most-limit`,
      title: `${op.operationId} returns at most \`${size.name}\` pets for every ${size.name} in ${min}..${max}, and all of them when fewer exist`,
      requirement: limitRequirements(size).atMost,
      arbitrary: () => fc.tuple(fc.oneof(fc.bigInt({ min, max }), fc.constantFrom(min, max, fallback, max - 1n, min + 1n)), filterValue),
      examples: () => [min, max, fallback].map((limit) => [limit, {}] as [bigint, Record<string, string>]),
      predicate: (c, [limit, filter]) => page(c, limit, filter),
      runs: (c) => Math.max(1, Math.round(c.options.runs / 2)),
    }),
    propertyCheck({
      ...base,
      id: `limits.${op.operationId}.default`,
      title: `${op.operationId} without \`${size.name}\` returns at most ${fallback} pets, and all of them when fewer exist`,
      requirement: limitRequirements(size).byDefault,
      arbitrary: () => filterValue,
      predicate: (c, filter) => page(c, undefined, filter),
      runs: (c) => Math.max(1, Math.round(c.options.runs / 10)),
    }),
    unspecifiedParameterCheck(op, size, max, {
      id: `limits.${op.operationId}.out-of-range`,
      decision: `${size.name}-out-of-range`,
      title: `${op.operationId} answers an out-of-range or malformed \`${size.name}\` without a server error (the answer itself is advisory)`,
      requirement: 'Behaviour for an out-of-range limit is not shown (§7); a conforming service still never fails on client input.',
      runs: 20,
    }),
    ...filters.map((filter) =>
      unspecifiedParameterCheck(op, filter, max, {
        id: `limits.${op.operationId}.invalid-${filter.name}`,
        decision: `${filter.name}-filter-invalid`,
        title: `${op.operationId} answers an invalid \`${filter.name}\` filter without a server error (the answer itself is advisory)`,
        requirement: 'Behaviour for an invalid `status` filter value is not shown (§7); a conforming service still never fails on client input.',
        runs: 10,
      }),
    ),
  ];
}

/**
 * A query parameter given a value its schema rejects, where the seed leaves
 * the answer open (§7): 400 (this project's choice), or 200 with a page no
 * larger than the maximum (a target that ignores or clamps it), but never a
 * 5xx, and any error with an Error body.
 */
function unspecifiedParameterCheck(
  op: OperationDescriptor,
  parameter: ParameterDescriptor,
  max: bigint,
  meta: { id: string; decision: string; title: string; requirement: string; runs: number },
): Check {
  const invalid = invalidParameterTexts(parameter);
  return propertyCheck({
    id: meta.id,
    family: 'limits',
    operationId: op.operationId,
    title: meta.title,
    requirement: meta.requirement,
    seedSection: SECTION,
    writes: false,
    arbitrary: () => fc.constantFrom(...invalid),
    examples: () => invalid,
    async predicate(c, value) {
      // With more pets than the maximum page, a target that ignores the bound shows it.
      await ensurePopulation(c, 'limits', op, max);
      const sent = await c.send('limits', {
        method: 'GET',
        path: `${op.path}?${parameter.name}=${encodeURIComponent(value.text)}`,
        operationId: op.operationId,
      });
      expectStatus(sent, [200, 400, 422], `${parameter.name} ${value.label}`);
      if (sent.response.status !== 200) expectErrorBody(sent);
      else if (!Array.isArray(sent.response.json) || BigInt(sent.response.json.length) > max) {
        throw new Violation(`${parameter.name} ${value.label} was answered 200 without a list of at most ${max} pets`, sent);
      }
      c.unspecified(
        {
          decision: meta.decision,
          family: 'limits',
          operationId: op.operationId,
          seed: '§7 "Behaviour for an out-of-range `limit` or an invalid `status` filter value on listing: not shown"',
          observed: `${parameter.name}=${value.text} (${value.label}) was answered ${sent.response.status}`,
          referenceBehaviour: '400 invalid_parameter',
          ...sent,
        },
        sent.response.status === 400,
      );
    },
    runs: (c) => Math.min(c.options.runs, meta.runs),
  });
}
