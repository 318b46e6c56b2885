// `petstore conform` passes every correct variant: shard 2 of the correct
// variants (see implementations-correct.test.ts).
import t from 'tap';
import { shard, testVariant } from './variants.js';

for (const variant of shard('correct', 2)) testVariant(t, variant);
