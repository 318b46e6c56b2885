// `petstore conform` fails every broken variant, in one of the families it
// breaks: shard 2 of the broken variants (see implementations-broken.test.ts).
import t from 'tap';
import { shard, testVariant } from './variants.js';

for (const variant of shard('broken', 2)) testVariant(t, variant);
