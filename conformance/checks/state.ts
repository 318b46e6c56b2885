/**
 * state (seed §2, §4): model-based runs (fc.asyncModelRun) of create, get and
 * list. The model is what this run created; the target may hold more. After
 * any sequence: a created pet is retrievable with the same fields, ids are
 * unique, a filtered list holds only matching pets, and a list shorter than
 * its limit holds every matching pet the run created.
 */
import { whereTheyDiffer } from '../show.js';
import fc from 'fast-check';
import { fillPath, queryString, sampleValidBody, validBody, type GeneratedBody } from '../arbitraries/requests.js';
import { integerRange } from '../arbitraries/schema.js';
import { expectErrorBody, expectStatus, propertyCheck } from '../check.js';
import type { JsonObject } from '../../spec/json/index.js';
import { describeValue, differingField, echoProblem } from '../knowledge.js';
import { Violation, type Check, type CheckContext } from '../vocabulary.js';
import { readPage } from './page.js';
import { createOperation, createPet, filterParameters, getOperation, listOperation, pageSizeParameter } from './family-requests.js';

export const SECTION = '§2 Resources, §4 Endpoints';

/** What the model-based runs hold a target to: said once, for them and the proxy's judge. */
export const STATE_REQUIREMENT =
  'Pet: "Unique identifier assigned by the service on creation" (§2); createPet returns the created Pet (§4.2); getPet returns a Pet (§4.3); listPets "Returns only animals with this status", limit is the maximum returned (§4.1).';

type Model = Record<string, never>;
type Real = CheckContext;

class CreateCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly body: GeneratedBody) {}
  check = () => true;
  async run(_m: Model, c: Real) {
    const { pet, sent } = await createPet(c, 'state', this.body);
    const problem = echoProblem(this.body.value as JsonObject, pet);
    if (problem) throw new Violation(problem, sent);
  }
  toString = () => `POST ${this.body.text}`;
}

class GetCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly pick: number) {}
  check = () => true;
  async run(_m: Model, c: Real) {
    const op = getOperation(c);
    const pets = c.knowledge.all();
    if (!op || pets.length === 0) return;
    const known = pets[this.pick % pets.length]!;
    const idParam = op.parameters.find((p) => p.in === 'path')!;
    const sent = await c.send('state', { method: op.method, path: fillPath(op.path, { [idParam.name]: known.id }), operationId: op.operationId });
    const gone = op.sunset !== undefined && c.targetNow() >= op.sunset.getTime();
    expectStatus(sent, gone ? [200, 404, 410] : [200], `getting pet ${known.id}, created by this run`);
    if (sent.response.status !== 200) return expectErrorBody(sent);
    const got = sent.response.json;
    if (got === null || typeof got !== 'object' || Array.isArray(got)) throw new Violation('the 200 body is not a Pet', sent);
    const field = differingField(known.pet, got);
    if (field)
      throw new Violation(
        `pet ${known.id} comes back with ${field} ${describeValue(got[field])}, created as ${describeValue(known.pet[field])}${whereTheyDiffer(got[field], known.pet[field])}`,
        sent,
      );
  }
  toString = () => `GET pet #${this.pick} of those created`;
}

class ListCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly limit: bigint | undefined,
    readonly filters: Record<string, string>,
  ) {}
  check = () => true;
  async run(_m: Model, c: Real) {
    const op = listOperation(c)!;
    const size = pageSizeParameter(op);
    const query = { ...(this.limit === undefined || !size ? {} : { [size.name]: String(this.limit) }), ...this.filters };
    const fallback = size && typeof size.schema['default'] === 'number' ? BigInt(size.schema['default'] as number) : BigInt(Number.MAX_SAFE_INTEGER);
    const request = { method: 'GET', path: op.path + queryString(query), operationId: op.operationId };
    await readPage(c, 'state', request, { limit: this.limit ?? fallback, filters: this.filters }, `listing with ${JSON.stringify(query)}`);
  }
  toString = () => `GET list ${JSON.stringify({ limit: this.limit?.toString(), ...this.filters })}`;
}

export function stateChecks(ctx: CheckContext): Check[] {
  const create = createOperation(ctx);
  const list = listOperation(ctx);
  if (!create || !list) return [];
  const size = pageSizeParameter(list);
  const [min, max] = size ? integerRange(size.schema) : [1n, 100n];
  const filters = filterParameters(list);
  return [
    propertyCheck({
      id: 'state.model',
      family: 'state',
      operationId: `${create.operationId}+${list.operationId}${getOperation(ctx) ? `+${getOperation(ctx)!.operationId}` : ''}`,
      title: 'sequences of create, get and list keep every created pet retrievable unchanged, ids unique, filters and short pages exact',
      requirement: STATE_REQUIREMENT,
      seedSection: SECTION,
      writes: true,
      arbitrary: (c) => {
        const filter = fc.record(Object.fromEntries(filters.map((f) => [f.name, fc.constantFrom(...((f.schema['enum'] ?? []) as string[]))])), {
          requiredKeys: [],
        }) as fc.Arbitrary<Record<string, string>>;
        return fc.commands(
          [
            validBody(create, c.options.namePrefix).map((b) => new CreateCommand(b)),
            fc.nat().map((n) => new GetCommand(n)),
            fc.tuple(fc.option(fc.oneof(fc.bigInt({ min, max }), fc.constantFrom(min, max))), filter).map(([l, f]) => new ListCommand(l ?? undefined, f)),
          ],
          { maxCommands: 12 },
        );
      },
      // The core of the model, tried before the generated sequences so that a
      // small --runs does not leave it to chance: two pets created, each read
      // back, then listed with the default page size and with the smallest.
      examples: (c) => [
        [
          ...[1, 2].map((seed) => new CreateCommand(sampleValidBody(create, c.options.namePrefix, seed))),
          new GetCommand(0),
          new GetCommand(1),
          new ListCommand(undefined, {}),
          new ListCommand(min, {}),
        ],
      ],
      async predicate(c, commands) {
        await fc.asyncModelRun(() => ({ model: {}, real: c }), commands);
      },
      runs: (c) => Math.max(1, Math.round(c.options.runs / 4)),
    }),
  ];
}
