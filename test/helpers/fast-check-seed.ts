/**
 * Loaded before every test file (package.json, tap's node-arg): the
 * properties of the tests draw from one seed a day, so no run depends on
 * chance; the day's seed is the fixture sample's (test/fixtures/variants.ts),
 * and a failure shows it in fast-check's report. PETSTORE_TEST_SEED replays
 * another.
 */
import fc from 'fast-check';

const given = process.env['PETSTORE_TEST_SEED'];
const seed = given !== undefined && /^\d+$/.test(given) ? Number(given) : Math.floor(Date.now() / 86_400_000);
fc.configureGlobal({ ...fc.readConfigureGlobal(), seed });
