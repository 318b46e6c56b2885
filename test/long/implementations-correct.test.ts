// Every correct variant passes `petstore conform` with its default options
// (--runs 100), as users run it; the fast tier runs them all with fewer
// generated cases (test/conformance/implementations-correct*.test.ts).
import t from 'tap';
import { implementations } from '../../fixtures/implementations/index.mjs';
import { testVariant } from '../conformance/variants.js';

for (const variant of implementations.filter((i) => i.kind === 'correct')) testVariant(t, variant, []);
