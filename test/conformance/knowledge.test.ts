// What the suite knows for certain (conformance/knowledge.ts): the pets this
// run created, by their exact int64 digits, each with the 201 that confirmed
// it; "the same pet" means the same value in every field the spec's Pet
// names; and the target's clock, read from its Date header.
import t from 'tap';
import { describeValue, differingField, echoProblem, idOf, isPetShaped, Knowledge } from '../../conformance/knowledge.js';
import { parseJson, type JsonObject } from '../../spec/json/index.js';
import { componentSchema } from '../../spec/operations.js';

t.test('an id is the exact digits of an integer id, and nothing else is one', async (t) => {
  t.equal(idOf({ id: 9007199254740993n, name: 'Rex' }), '9007199254740993', 'past 2^53, digit for digit');
  t.equal(idOf({ id: -1n }), '-1');
  t.equal(idOf({ id: '12' }), undefined, 'a string is not the int64 the spec names');
  t.equal(idOf({ id: 1.5 }), undefined);
  t.equal(idOf({ name: 'Rex' }), undefined);
  t.equal(idOf([{ id: 1n }] as never), undefined);
  t.equal(idOf(null), undefined);
  t.equal(idOf(undefined), undefined);
  t.equal(idOf(7n), undefined);
});

t.test("two pets are the same when every field of the spec's Pet has the same value; other fields are not compared", async (t) => {
  const rex: JsonObject = { id: 1n, name: 'Rex', status: 'available' };
  t.equal(differingField(rex, { ...rex }), undefined);
  t.equal(differingField(rex, { ...rex, extra: 'x' }), undefined, 'a field the spec does not name');
  t.equal(differingField({ ...rex, extra: 'x' }, rex), undefined);
  t.equal(differingField(rex, { ...rex, name: 'Max' }), 'name');
  t.equal(differingField(rex, { ...rex, id: 2n }), 'id');
  // Whichever fields the spec's Pet names, each is compared: changed, gone or added.
  for (const field of Object.keys(componentSchema('Pet')['properties'] as object)) {
    const { [field]: _, ...without } = { ...rex, [field]: 'a' };
    t.equal(differingField({ ...rex, [field]: 'a' }, { ...rex, [field]: 'b' }), field, `${field} changed`);
    t.equal(differingField({ ...rex, [field]: 'a' }, without), field, `${field} gone`);
    t.equal(differingField(without, { ...rex, [field]: 'a' }), field, `${field} added`);
  }
  t.equal(differingField({ id: 1n, name: 'Rex' }, { id: 1n, name: 'Rex' }), undefined, 'absent from both');
  t.equal(differingField({ ...rex, id: 9007199254740993n }, { ...rex, id: 9007199254740992n }), 'id', 'compared as exact JSON, not as numbers');
  t.equal(differingField({ ...rex, name: 'Rex' }, { ...rex, name: 'Rex ' }), 'name');
});

t.test('a 201 that changed what was sent names the first field changed, with both values', async (t) => {
  t.equal(echoProblem({ name: 'Rex' }, { id: 1n, name: 'Rex' }), undefined);
  t.equal(
    echoProblem({ name: 'Rex', status: 'sold' }, { id: 1n, name: 'rex', status: 'pending' }),
    'created with name "Rex", the 201 says "rex" (they differ from character 1: U+0052 U+0065 U+0078, then U+0072 U+0065 U+0078)',
  );
  t.equal(
    echoProblem({ name: 'conform-\u00c5' }, { id: 1n, name: 'conform-A\u030a' }),
    'created with name "conform-\u00c5", the 201 says "conform-A\u030a" (they differ from character 9: U+00C5, then U+0041 U+030A)',
    'two names that print alike are told apart',
  );
  t.equal(echoProblem({ name: 'Rex', status: 'sold' }, { id: 1n, name: 'Rex' }), 'created with status "sold", the 201 says (absent)');
  t.equal(describeValue(undefined), '(absent)');
  t.equal(describeValue(12n), '12');
  t.equal(describeValue(null), 'null');
});

t.test('the pets created are known by id, with the time their 201 arrived', async (t) => {
  const knowledge = new Knowledge();
  t.same(knowledge.all(), []);
  const before = performance.now();
  const rex = knowledge.record({ id: 9007199254740993n, name: 'Rex', status: 'available' });
  t.equal(rex?.id, '9007199254740993');
  t.ok(rex!.confirmedAt >= before && rex!.confirmedAt <= performance.now());
  t.equal(knowledge.record({ name: 'no id' }), undefined, 'a 201 without an id teaches nothing');
  t.ok(knowledge.has('9007199254740993'));
  t.notOk(knowledge.has('9007199254740992'));
  t.equal(knowledge.get('9007199254740993'), rex);
  t.equal(knowledge.get('1'), undefined);
  const max = knowledge.record({ id: 2n, name: 'Max', status: 'sold' })!;
  t.same(
    knowledge.all().map((p) => p.id),
    ['9007199254740993', '2'],
  );
  t.same(
    knowledge.confirmedBefore(performance.now() + 1).map((p) => p.id),
    ['9007199254740993', '2'],
  );
  t.same(
    knowledge.confirmedBefore(performance.now() + 1, 'sold').map((p) => p.id),
    ['2'],
  );
  t.same(knowledge.confirmedBefore(max.confirmedAt, 'sold'), [], 'confirmed at the instant itself is not before it');
  t.same(knowledge.confirmedBefore(rex!.confirmedAt), []);
  const again = knowledge.record({ id: 2n, name: 'Max', status: 'sold' })!;
  t.equal(knowledge.get('2'), again, 'the latest 201 for an id is kept');
  t.equal(knowledge.all().length, 2);
});

t.test("the target's clock comes from its latest Date header, and runs on from there", async (t) => {
  const knowledge = new Knowledge();
  t.equal(knowledge.targetDate(), undefined, 'no Date header yet');
  const now = knowledge.targetNow();
  t.ok(Math.abs(now - Date.now()) < 1000, 'the local clock until then');
  knowledge.noteDate('Thu, 05 Dec 2030 00:00:00 GMT');
  t.equal(knowledge.targetDate(), '2030-12-05T00:00:00.000Z');
  await new Promise((resolve) => setTimeout(resolve, 50));
  t.equal(knowledge.targetNow(), Date.parse('2030-12-05T00:00:00Z'), 'to the second, as the header says it');
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const target = knowledge.targetNow();
  t.ok(target >= Date.parse('2030-12-05T00:00:01Z') && target < Date.parse('2030-12-05T00:00:05Z'), 'it runs on from the header');
  t.equal(target % 1000, 0, 'in whole seconds');
  knowledge.noteDate('not a date');
  knowledge.noteDate(undefined);
  knowledge.noteDate('');
  t.equal(knowledge.targetDate(), '2030-12-05T00:00:00.000Z', 'a header that is no date changes nothing');
  knowledge.noteDate('Sun, 06 Nov 1994 08:49:37 GMT');
  t.equal(knowledge.targetDate(), '1994-11-06T08:49:37.000Z');
  // A recipient accepts the obsolete forms too (RFC 9110 §5.6.7); asctime names no zone and is UTC,
  // on a machine east of UTC as well (Node.js reads TZ again when it changes).
  const zone = process.env['TZ'];
  process.env['TZ'] = 'Asia/Tokyo';
  t.teardown(() => {
    if (zone === undefined) delete process.env['TZ'];
    else process.env['TZ'] = zone;
  });
  knowledge.noteDate('Thu Dec  5 00:00:00 2030');
  t.equal(knowledge.targetDate(), '2030-12-05T00:00:00.000Z', 'asctime, read as UTC');
});

const parsed = (text: string): JsonObject => {
  const result = parseJson(text);
  if (!result.ok) throw new Error(result.message);
  return result.value as JsonObject;
};

t.test('pet-shaped: an id and a name, or an id and a categoryId; an id alone is not', async (t) => {
  const shaped = (text: string) => isPetShaped(parsed(text));
  t.ok(shaped('{"id":1,"name":"Rex"}'), 'a summary: id and name');
  t.ok(shaped('{"id":1,"categoryId":2}'), 'id and categoryId');
  t.ok(shaped('{"id":1,"name":"Rex","categoryId":2}'));
  t.notOk(shaped('{"id":"req-1"}'), 'an id alone (a request id) is not a pet');
  t.notOk(shaped('{"name":"Rex","categoryId":2}'), 'no id: a NewPet, not a stored pet');
});
