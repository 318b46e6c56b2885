// The nearest known name offered with an unknown one (src/server/findings/nearest.ts).
import t from 'tap';
import { editDistance, nearestName } from '../../../../src/server/findings/nearest.js';

t.test('a misspelt, recased or differently separated name is offered the known one', async (t) => {
  t.equal(nearestName('stauts', ['limit', 'status']), 'status', 'two letters swapped');
  t.equal(nearestName('statuses', ['limit', 'status']), 'status', 'two letters more');
  t.equal(nearestName('Limit', ['limit', 'status']), 'limit', 'another case');
  t.equal(nearestName('category_id', ['name', 'categoryId', 'status']), 'categoryId', 'snake case');
  t.equal(nearestName('category-ID', ['name', 'categoryId', 'status']), 'categoryId', 'kebab case');
  t.equal(nearestName('nmae', ['name', 'categoryId', 'status']), 'name', 'a short name, one swap');
});

t.test('a name far from every known one is offered none', async (t) => {
  t.equal(nearestName('page', ['limit', 'status']), undefined);
  t.equal(nearestName('tags', ['name', 'categoryId', 'status']), undefined);
  t.equal(nearestName('offset', ['limit', 'status']), undefined);
  t.equal(nearestName('', ['limit']), undefined);
  t.equal(nearestName('x', []), undefined);
});

t.test('editDistance counts a swap of neighbours as one edit', async (t) => {
  t.equal(editDistance('stauts', 'status'), 1);
  t.equal(editDistance('abc', 'abc'), 0);
  t.equal(editDistance('', 'abc'), 3);
  t.equal(editDistance('kitten', 'sitting'), 3);
});
