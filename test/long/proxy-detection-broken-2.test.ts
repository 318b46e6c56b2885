// Detection behind `petstore proxy` (issue 48, "Measured → Detection"), the
// broken side, half 2 of 2 (one file each, so they run side by side): every
// broken fixture fails `petstore conform` through a proxy in front of it as it
// does direct (seed 1, DETECTION_RUNS and --checks with the families it
// breaks, both ways), but for the few listed in
// UNREACHABLE_THROUGH_PROXY with the reason the proxy cannot pass the suite's
// request on unchanged; and a fixture whose direct run fails a check the
// passive judge reaches on one exchange (JUDGED_CHECK_IDS) leaves a server
// error in the proxy. The last test comments the tally.
import t from 'tap';
import { startVariant } from '../../fixtures/implementations/index.mjs';
import { brokenHalf, DETECTION_KEY, DETECTION_RUNS, newTally, reportTally, testBroken, UNREACHABLE_THROUGH_PROXY } from '../helpers/proxy-detection.js';

// About 150 fixtures, each run twice at a second or two a run: more than tap's default per file.
t.setTimeout(900_000);
const tally = newTally();
for (const variant of brokenHalf(2)) {
  // The families the fixture breaks only, as the fast tier runs a broken fixture (test/fixtures/variants.ts): the
  // whole suite twice over each of about 300 fixtures is more than the long tier's time; the correct fixtures and
  // the frameworks (proxy-detection-conforming.test.ts) carry the whole run.
  const extra = [...DETECTION_RUNS, '--checks', variant.violates.join(','), ...(variant.readOnly ? ['--read-only'] : [])];
  testBroken(t, variant, () => startVariant(variant.name, { apiKey: DETECTION_KEY }), extra, UNREACHABLE_THROUGH_PROXY[variant.name], tally);
}
reportTally(t, tally);
