// `petstore conform` fails every broken variant, in one of the families it
// breaks: shards 3 and 4 of the broken variants (see implementations-broken.test.ts).
import t from 'tap';
import { shard, testVariant } from './variants.js';

for (const variant of [...shard('broken', 3), ...shard('broken', 4)]) testVariant(t, variant);
