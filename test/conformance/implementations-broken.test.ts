// The suite is only as good as what it catches (fixtures/implementations):
// `petstore conform`, the real CLI, fails every broken variant and reports it
// in one of the families the variant is known to break. Seed 1 throughout, so
// a failure here replays with `petstore conform --seed 1`. The variants are
// in shards (variants.ts): this file has the first two, implementations-broken-2
// the other two.
import t from 'tap';
import { implementations } from '../../fixtures/implementations/index.mjs';
import { SHARDS, shard, testVariant } from './variants.js';

t.test('the shards hold every variant once', async (t) => {
  for (const kind of ['broken', 'correct'] as const) {
    const names = Array.from({ length: SHARDS[kind] }, (_, i) => shard(kind, i + 1))
      .flat()
      .map((v) => v.name);
    t.strictSame(
      names,
      implementations.filter((i) => i.kind === kind).map((i) => i.name),
      kind,
    );
  }
  t.ok(implementations.filter((i) => i.kind === 'broken').length >= 40, 'there are broken variants');
});

for (const variant of [...shard('broken', 1), ...shard('broken', 2)]) testVariant(t, variant);
