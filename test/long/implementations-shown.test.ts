// Every variant of fixtures/implementations shows its defect (or its
// difference) under its probe, and the base does not (test/fixtures/probes.ts);
// the fast tier runs the day's sample of them.
import t from 'tap';
import { implementations } from '../../fixtures/implementations/index.mjs';
import { testShown } from '../fixtures/probes.js';

for (const i of implementations) testShown(t, i);
