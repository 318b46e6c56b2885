// Every broken variant fails `petstore conform` with its default options
// (--runs 100), as users run it: shard 3 of 4 (one file each, so they run side
// by side). The fast tier runs a daily sample of them with fewer
// generated cases (test/fixtures/sample.test.ts).
import t from 'tap';
import { shard, testVariant } from '../fixtures/variants.js';

// A shard runs about 25 variants of a few seconds each: more than tap's default per file.
t.setTimeout(600_000);
for (const variant of shard('broken', 3)) testVariant(t, variant, []);
