// Every correct variant passes `petstore conform` with its default options
// (--runs 100), as users run it: shard 2 of 2. The fast tier runs a daily
// sample of them with fewer generated cases (test/fixtures/sample.test.ts).
import t from 'tap';
import { shard, testVariant } from '../fixtures/variants.js';

// A shard runs about 20 variants of a few seconds each: more than tap's default per file.
t.setTimeout(600_000);
for (const variant of shard('correct', 2)) testVariant(t, variant, []);
