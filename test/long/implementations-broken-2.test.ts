// Every broken variant fails `petstore conform` with its default options:
// shards 3 and 4 (see implementations-broken.test.ts).
import t from 'tap';
import { shard, testVariant } from '../conformance/variants.js';

for (const variant of [...shard('broken', 3), ...shard('broken', 4)]) testVariant(t, variant, []);
