// The ledger of pets (conformance/passive/ledger-of-pets.ts): what passive
// traffic shows across exchanges. A pet a 201 created is served unchanged by
// later reads; an id a 201 gave is not given again to another pet; a list
// holds no more pets than its limit, or the spec's default.
import t from 'tap';
import type { Exchange } from '../../../conformance/client.js';
import { createLedgerOfPets } from '../../../conformance/passive/ledger-of-pets.js';
import { operationById } from '../../../spec/operations.js';

const operations = { create: operationById('createPet'), get: operationById('getPet'), list: operationById('listPets') };
const pet = (id: bigint, name = 'Rex', categoryId = 1n, status = 'available') => ({ id, name, categoryId, status });

const exchange = (method: string, path: string, operationId: string, status: number, json: unknown): Exchange =>
  ({
    family: 'passive',
    request: { method, path, headers: {}, operationId },
    response: { status, headers: {}, text: JSON.stringify(json, (_, v) => (typeof v === 'bigint' ? Number(v) : v)), json, durationMs: 1 },
  }) as never;
const created = (value: object) => exchange('POST', '/pets', 'createPet', 201, value);
const read = (value: { id: bigint }) => exchange('GET', `/pets/${value.id}`, 'getPet', 200, value);
const listed = (path: string, items: readonly object[]) => exchange('GET', path, 'listPets', 200, items);

t.test('a created pet served with the fields its 201 gave passes, by getPet and in a list', async (t) => {
  const ledger = createLedgerOfPets(operations);
  t.same(ledger.judge(created(pet(1n))), []);
  t.same(ledger.judge(read(pet(1n))), []);
  t.same(ledger.judge(listed('/pets', [pet(2n, 'Other'), pet(1n)])), [], 'a pet the traffic never saw created is not judged');
});

t.test('a created pet served otherwise breaks state.created-unchanged, int64 digit for digit, and says what it was judged from', async (t) => {
  const ledger = createLedgerOfPets(operations);
  ledger.judge(created(pet(9007199254740993n, 'Rex', 9007199254740993n)));
  const [finding, ...rest] = ledger.judge(read(pet(9007199254740993n, 'Rex', 9007199254740992n)));
  t.equal(rest.length, 0);
  t.equal(finding?.rule, 'state.created-unchanged');
  t.equal(finding?.severity, 'error');
  t.equal(finding?.operationId, 'getPet');
  t.match(
    finding?.problem,
    /^pet 9007199254740993 was created with categoryId 9007199254740993 \(the 201 to POST \/pets\) but GET \/pets\/9007199254740993 served categoryId 9007199254740992/,
  );
  t.match(finding?.problem, /judged only from the exchanges that passed through the proxy$/);
  t.match(finding?.requirement, /Pets never change once created/);
  const [inList] = ledger.judge(listed('/pets?limit=5', [pet(9007199254740993n, 'rex', 9007199254740993n)]));
  t.equal(inList?.rule, 'state.created-unchanged', 'in a list too');
  t.equal(inList?.kind, 'a created pet served with another name');
});

t.test('a read that is no 200 to GET, or holds no pet, is not compared', async (t) => {
  const ledger = createLedgerOfPets(operations);
  ledger.judge(created(pet(1n)));
  t.same(ledger.judge(exchange('GET', '/pets/1', 'getPet', 404, { code: 'not_found', message: 'x', status: 404n })), []);
  t.same(ledger.judge(exchange('HEAD', '/pets/1', 'getPet', 200, undefined)), []);
  t.same(ledger.judge(exchange('GET', '/pets/1', 'getPet', 200, 'text')), []);
});

t.test('an id given again to another pet breaks state.id-reused; the same pet given twice does not', async (t) => {
  const ledger = createLedgerOfPets(operations);
  ledger.judge(created(pet(5n, 'Rex')));
  t.same(ledger.judge(created(pet(5n, 'Rex'))), [], 'the same fields: nothing shows it is another pet');
  const [finding] = ledger.judge(created(pet(5n, 'Tom')));
  t.equal(finding?.rule, 'state.id-reused');
  t.equal(finding?.operationId, 'createPet');
  t.match(finding?.problem, /^a 201 gave id 5 to a pet with name "Tom", an id an earlier 201 gave to a pet with name "Rex"; judged only/);
  t.match(finding?.requirement, /Unique identifier assigned by the service on creation/);
  t.same(ledger.judge(read(pet(5n, 'Tom'))), [], 'later reads are compared with the latest 201');
});

t.test('memory is bounded: the oldest pet is forgotten first, and a forgotten one is no longer judged', async (t) => {
  const ledger = createLedgerOfPets(operations, 2);
  for (const id of [1n, 2n, 3n]) ledger.judge(created(pet(id)));
  t.equal(ledger.remembered(), 2);
  t.same(ledger.judge(read(pet(1n, 'Changed'))), [], 'pet 1 was forgotten');
  t.equal(ledger.judge(read(pet(3n, 'Changed')))[0]?.rule, 'state.created-unchanged', 'pet 3 is remembered');
  t.same(ledger.judge(created(pet(1n, 'Other'))), [], 'an id forgotten is not known to have been given');
});

t.test('a list holds at most its limit, or the default limit when none is given', async (t) => {
  const ledger = createLedgerOfPets(operations);
  const pets = (n: number) => Array.from({ length: n }, (_, i) => pet(BigInt(i + 100)));
  t.same(ledger.judge(listed('/pets?limit=3', pets(3))), []);
  t.same(ledger.judge(listed('/pets', pets(20))), [], 'the default limit is 20');
  const [over] = ledger.judge(listed('/pets?limit=3&status=available', pets(4)));
  t.equal(over?.rule, 'state.page-size');
  t.equal(
    over?.problem,
    'GET /pets?limit=3&status=available was answered with 4 pets, more than its limit of 3; judged only from the exchanges that passed through the proxy',
  );
  t.match(over?.requirement, /limit: minimum 1, maximum 100; "Maximum number of animals returned" \(§4\.1, §8\)\. limit default 20/);
  const [byDefault] = ledger.judge(listed('/pets', pets(21)));
  t.equal(
    byDefault?.problem,
    'GET /pets was answered with 21 pets, more than the default limit of 20; judged only from the exchanges that passed through the proxy',
  );
  t.not(over?.kind, byDefault?.kind);
});

t.test("a limit the spec refuses promises no page size: it is the single-exchange judges' business", async (t) => {
  const ledger = createLedgerOfPets(operations);
  const many = Array.from({ length: 150 }, (_, i) => pet(BigInt(i + 1)));
  for (const path of ['/pets?limit=0', '/pets?limit=101', '/pets?limit=abc', '/pets?limit=5&limit=6', '/pets?limit=']) {
    t.same(ledger.judge(listed(path, many)), [], path);
  }
});
