// Every broken variant fails `petstore conform` with its default options
// (--runs 100), as users run it: shards 1 and 2 here, 3 and 4 in
// implementations-broken-2.test.ts. The fast tier runs them all with fewer
// generated cases (test/conformance/implementations-broken*.test.ts).
import t from 'tap';
import { shard, testVariant } from '../conformance/variants.js';

for (const variant of [...shard('broken', 1), ...shard('broken', 2)]) testVariant(t, variant, []);
