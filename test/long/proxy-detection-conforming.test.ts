// Detection behind `petstore proxy` (issue 48, "Measured → Detection"), the
// conforming side: every correct fixture of fixtures/implementations and every
// framework server of fixtures/frameworks passes `petstore conform` through a
// proxy in front of it exactly as it does direct, and the proxy, judging the
// suite's whole run, finds no server error in what they answer (advisories,
// the warnings, are allowed and counted). Seed 1, DETECTION_RUNS both ways.
// The broken side: proxy-detection-broken-{1,2}.test.ts.
import t from 'tap';
import { frameworks, startFramework } from '../../fixtures/frameworks/index.mjs';
import { implementations, startVariant } from '../../fixtures/implementations/index.mjs';
import { DETECTION_KEY, DETECTION_RUNS, testConforming } from '../helpers/proxy-detection.js';

// About 75 servers, each run twice at a few seconds a run: more than tap's default per file.
t.setTimeout(900_000);

for (const variant of implementations.filter((i) => i.kind === 'correct')) {
  const extra = variant.readOnly ? [...DETECTION_RUNS, '--read-only'] : [...DETECTION_RUNS];
  testConforming(t, `correct fixture ${variant.name} (${variant.description})`, () => startVariant(variant.name, { apiKey: DETECTION_KEY }), extra);
}
// FastAPI runs as test/long/frameworks.test.ts runs it: /usr/bin/python3 with Debian's python3-fastapi.
for (const framework of frameworks) {
  testConforming(t, `framework ${framework.name} (${framework.description})`, () => startFramework(framework.name, { apiKey: DETECTION_KEY }), [
    ...DETECTION_RUNS,
  ]);
}
