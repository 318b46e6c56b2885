// What a finding is (src/server/findings/finding.ts): a refusal's finding has
// the code of the Error the client got (the catalogue's), a warning a code of its
// own; memory is bounded at MAX_FINDINGS_PER_RULE distinct findings per rule, and
// texts taken from a request are cut after MAX_SHOWN_CHARS characters.
import t from 'tap';
import { controlOpenapi } from '../../../../spec/control-openapi.js';
import { createClock } from '../../../../src/server/clock.js';
import { errorCatalog } from '../../../../src/server/errors.js';
import { type FindingCode, type FindingDraft, MAX_FINDINGS_PER_RULE, MAX_SHOWN_CHARS, type Severity } from '../../../../src/server/findings/finding.js';
import { createFindingLedger } from '../../../../src/server/findings/ledger.js';

/** Every FindingCode with the severity of its findings: tsc fails here when a code is added or removed. */
const CODES = {
  unauthorized: 'error',
  route_not_found: 'error',
  method_not_allowed: 'error',
  invalid_parameter: 'error',
  invalid_body: 'error',
  malformed_json: 'error',
  unsupported_media_type: 'error',
  payload_too_large: 'error',
  uri_too_long: 'error',
  bad_request: 'error',
  pet_not_found: 'error',
  gone: 'error',
  unknown_query_parameter: 'warning',
  unknown_body_field: 'warning',
  deprecated_operation: 'warning',
  rounded_id: 'warning',
  key_form: 'warning',
} as const satisfies Record<FindingCode, Severity>;

/** A clock stopped at one instant: the ledger stamps what it notes with it. */
const stopped = { ...createClock(), now: () => Date.UTC(2030, 0, 1) };

const draft = (over: Partial<FindingDraft> = {}): FindingDraft => ({
  code: 'unknown_query_parameter',
  severity: 'warning',
  rule: '/paths/~1pets/get/parameters',
  subject: 'page',
  seed: '§4.1 List animals',
  operationId: 'listPets',
  sent: 'page=2',
  expected: 'limit or status',
  message: 'listPets has no parameter page',
  ...over,
});

t.test('a refusal’s finding has the code of an Error in the catalogue; a warning’s code is none of them', async (t) => {
  const codes = Object.keys(CODES) as FindingCode[];
  for (const code of codes.filter((c) => CODES[c] === 'error')) t.ok(code in errorCatalog, `${code} is an Error code`);
  const warnings = codes.filter((c) => CODES[c] === 'warning');
  for (const code of warnings) t.notOk(code in errorCatalog, `${code} is a warning's own`);
  const described = controlOpenapi.components.schemas.Finding.properties.code.description;
  t.match(described, `${warnings.slice(0, -1).join(', ')} or ${warnings.at(-1)}`, 'the control API names the same warning codes');
});

t.test('the bounds: 20 distinct findings per rule, texts cut after 200 characters', async (t) => {
  t.equal(MAX_FINDINGS_PER_RULE, 20);
  t.equal(MAX_SHOWN_CHARS, 200);
});

t.test('a rule keeps MAX_FINDINGS_PER_RULE distinct findings; one more counts the rest', async (t) => {
  const ledger = createFindingLedger({ clock: stopped, redact: (s) => s, keys: [] });
  const total = MAX_FINDINGS_PER_RULE + 5;
  for (let i = 1; i <= total; i++) ledger.note({ seq: i, req: { method: 'GET', url: `/v1/pets?p${i}=1` } }, draft({ subject: `p${i}`, sent: `p${i}=1` }));
  const all = ledger.list();
  t.equal(all.length, MAX_FINDINGS_PER_RULE + 1);
  t.strictSame(
    all.slice(0, MAX_FINDINGS_PER_RULE).map((f) => f.count),
    Array(MAX_FINDINGS_PER_RULE).fill(1),
  );
  t.equal(all[MAX_FINDINGS_PER_RULE]?.count, 5, 'the five over the bound, counted together');
  t.equal(all[MAX_FINDINGS_PER_RULE]?.first.request, MAX_FINDINGS_PER_RULE + 1);
});

t.test('a finding as shown has no subject, and a target over MAX_SHOWN_CHARS is cut', async (t) => {
  const ledger = createFindingLedger({ clock: stopped, redact: (s) => s, keys: [] });
  const long = `/v1/pets?${'x'.repeat(300)}=1`;
  ledger.note({ seq: 7, req: { method: 'GET', url: long } }, draft());
  const [finding] = ledger.list();
  t.notOk(finding && 'subject' in finding, 'the subject only tells drafts apart');
  t.match(finding, { code: 'unknown_query_parameter', severity: 'warning', operationId: 'listPets', count: 1 });
  const target = finding?.first.target ?? '';
  t.equal(target, `${long.slice(0, MAX_SHOWN_CHARS)}… (${long.length} characters)`);
  t.equal(finding?.first.at, '2030-01-01T00:00:00.000Z', 'by the server clock');
});
