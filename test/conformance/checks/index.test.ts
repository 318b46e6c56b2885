// Where the runner finds each family's checks: one builder per family of
// FAMILY_TABLE (vocabulary.ts), keyed by its id; a builder builds checks of
// its own family only, and `responses` builds none (its checks are the
// response judge's outcomes, checks/responses.ts).
import t from 'tap';
import { authChecks } from '../../../conformance/checks/auth.js';
import { CHECK_BUILDERS } from '../../../conformance/checks/index.js';
import { limitsChecks } from '../../../conformance/checks/limits.js';
import { validationChecks } from '../../../conformance/checks/validation.js';
import { type CheckContext, FAMILIES } from '../../../conformance/vocabulary.js';
import { describeOperations } from '../../../spec/operations.js';
import { openapi } from '../../../spec/openapi.js';

/** What a builder reads: the spec's operations and the run's options (nothing is sent while building). */
const context = (operations = describeOperations(openapi)) =>
  ({
    client: { observe: () => {} },
    operations,
    options: { apiKey: 'secret-key-123', seed: 1, runs: 5, namePrefix: 'conform-' },
  }) as unknown as CheckContext;

const family = (name: keyof typeof CHECK_BUILDERS) => CHECK_BUILDERS[name](context()).map((c) => c.id);

t.test('there is one builder for each declared family, and none for another', async (t) => {
  t.strictSame(Object.keys(CHECK_BUILDERS).sort(), [...FAMILIES].sort());
});

t.test("each builder builds checks of its own family only, each id prefixed by the family's, no id twice", async (t) => {
  const ids: string[] = [];
  for (const name of FAMILIES) {
    for (const check of CHECK_BUILDERS[name](context())) {
      t.equal(check.family, name, `${check.id}: of the family ${name}`);
      t.ok(check.id.startsWith(`${name}.`), `${check.id}: named after ${name}`);
      ids.push(check.id);
    }
  }
  t.equal(new Set(ids).size, ids.length, 'no id is built twice');
  t.ok(ids.length >= 40, `${ids.length} checks in all`);
});

t.test('responses has no builder of its own: its checks come from the response judge', async (t) => {
  t.strictSame(family('responses'), []);
});

t.test("auth, validation and limits are each family module's own builder, building a check for each operation it covers", async (t) => {
  t.equal(CHECK_BUILDERS.auth, authChecks);
  t.equal(CHECK_BUILDERS.validation, validationChecks);
  t.equal(CHECK_BUILDERS.limits, limitsChecks);
  t.strictSame(family('auth'), ['auth.listPets.refused', 'auth.createPet.refused', 'auth.getPet.refused', 'auth.listPets.accepted', 'auth.getPet.existing']);
  t.strictSame(family('validation'), [
    'validation.createPet.valid-body',
    'validation.createPet.invalid-body',
    'validation.createPet.unspecified',
    'validation.createPet.long-name',
  ]);
  t.strictSame(family('limits'), [
    'limits.listPets.at-most-limit',
    'limits.listPets.default',
    'limits.listPets.out-of-range',
    'limits.listPets.invalid-status',
  ]);
});

t.test('the checks are built from the operations given: without any, the per-operation families build none', async (t) => {
  for (const name of ['auth', 'validation', 'limits', 'not-found', 'state', 'routes'] as const) {
    t.strictSame(
      CHECK_BUILDERS[name](context([])).map((c) => c.id),
      [],
      name,
    );
  }
});
