// The drafts about the API key (src/server/findings/auth-drafts.ts), seed §5:
// why a request was refused 401 (no key, two Authorization fields, a key
// elsewhere, a header not in the form `Bearer <key>`, a key not accepted), the
// warning of an accepted key in a looser form, and drafts made once per form.
import t from 'tap';
import { createFormDrafts, keyFormDraft, unauthorizedDraft, type FormDrafts } from '../../../../src/server/findings/auth-drafts.js';
import type { CheckedRequest } from '../../../../src/server/findings/checked-request.js';
import type { FindingDraft } from '../../../../src/server/findings/finding.js';

const KEY = 'sk-live-123';
const redact = (text: string) => text.replaceAll(KEY, '[redacted]');

/** A request as the checks read it; rawHeaders as node:http gives them, unless given. */
function refused(headers: Record<string, string>, url = '/v1/pets', rawHeaders?: string[]): CheckedRequest {
  return { seq: 1, req: { method: 'GET', url, headers, rawHeaders: rawHeaders ?? Object.entries(headers).flat() } };
}

/** A FormDrafts that makes every draft afresh and records the form it was asked for. */
function recording(): { forms: string[]; formDraft: FormDrafts } {
  const forms: string[] = [];
  return {
    forms,
    formDraft: (form, make) => {
      forms.push(form);
      return make();
    },
  };
}

const EXPECTED = 'Authorization: Bearer <API_KEY>, with a key this server accepts';

t.test('a request without a key is refused as carrying none; an empty header counts as none', async (t) => {
  const drafts = createFormDrafts();
  const none = unauthorizedDraft(refused({}), redact, drafts);
  t.strictSame(none, {
    code: 'unauthorized',
    severity: 'error',
    status: 401,
    rule: '/components/securitySchemes/bearerAuth',
    subject: 'none',
    seed: '§5 Authentication',
    sent: 'no Authorization header',
    expected: EXPECTED,
    message: 'the request carries no key: send Authorization: Bearer <API_KEY>',
  });
  t.equal(unauthorizedDraft(refused({ authorization: '   ' }), redact, drafts).subject, 'none', 'whitespace only');
  t.equal(unauthorizedDraft(refused({}), redact, drafts), none, 'the same draft each time: made once');
});

t.test('a key put elsewhere is named where it was put, one draft per place', async (t) => {
  const { forms, formDraft } = recording();
  const query = unauthorizedDraft(refused({}, `/v1/pets?api_key=${KEY}`), redact, formDraft);
  t.match(query, {
    code: 'unauthorized',
    status: 401,
    subject: 'elsewhere the query parameter api_key',
    sent: 'no Authorization header; a key in the query parameter api_key?',
    expected: EXPECTED,
    message: 'the key goes in Authorization: Bearer <API_KEY>, not in the query parameter api_key',
  });
  const header = unauthorizedDraft(refused({ 'x-api-key': KEY }), redact, formDraft);
  t.equal(header.sent, 'no Authorization header; a key in the x-api-key header?');
  t.strictSame(forms, ['elsewhere the query parameter api_key', 'elsewhere the x-api-key header'], 'asked of the form drafts by place');
  t.notMatch(JSON.stringify([query, header]), KEY);
});

t.test('two Authorization fields are refused as such, whatever the first holds', async (t) => {
  const draft = unauthorizedDraft(
    refused({ authorization: `Bearer ${KEY}` }, '/v1/pets', ['Authorization', `Bearer ${KEY}`, 'authorization', 'Bearer other']),
    redact,
    createFormDrafts(),
  );
  t.match(draft, {
    code: 'unauthorized',
    status: 401,
    subject: 'repeated',
    sent: 'two Authorization fields',
    message: 'the request carries two Authorization fields: send exactly one, Authorization: Bearer <API_KEY>',
  });
});

t.test('a key sent as `Bearer <key>`, or as a looser Bearer form, that was refused is a key this server does not accept', async (t) => {
  const { forms, formDraft } = recording();
  const canonical = unauthorizedDraft(refused({ authorization: 'Bearer wrong-key' }), redact, formDraft);
  t.match(canonical, {
    code: 'unauthorized',
    status: 401,
    subject: 'invalid',
    sent: 'Authorization: Bearer <a key this server does not accept>',
    message: 'the key is not one this server accepts: check which key the client sends',
  });
  t.equal(unauthorizedDraft(refused({ authorization: 'bearer wrong-key' }), redact, formDraft), canonical, 'lower-case bearer');
  t.equal(unauthorizedDraft(refused({ authorization: 'Bearer   wrong-key' }), redact, formDraft), canonical, 'three spaces');
  t.strictSame(forms, [], 'no draft of a form');
});

t.test('a header in another form is refused naming its form, without the key', async (t) => {
  const { forms, formDraft } = recording();
  const basic = unauthorizedDraft(refused({ authorization: `Basic ${KEY}` }), redact, formDraft);
  t.strictSame(basic, {
    code: 'unauthorized',
    severity: 'error',
    status: 401,
    rule: '/components/securitySchemes/bearerAuth',
    subject: 'Authorization: Basic <key>',
    seed: '§5 Authentication',
    sent: 'Authorization: Basic <key>',
    expected: EXPECTED,
    message: 'send the key as Authorization: Bearer <API_KEY> (the Bearer scheme, one space, the key), not as Authorization: Basic <key>',
  });
  const empty = unauthorizedDraft(refused({ authorization: 'Bearer ' }), redact, formDraft);
  t.equal(empty.sent, 'Authorization: Bearer (nothing after the scheme)', 'a Bearer scheme with no key is a form, not a wrong key');
  const keyAsScheme = unauthorizedDraft(refused({ authorization: `${KEY} extra` }), redact, formDraft);
  t.equal(keyAsScheme.sent, 'Authorization: [redacted] <key>', 'the key in the scheme’s place is redacted');
  t.notMatch(JSON.stringify(keyAsScheme), KEY);
  t.strictSame(forms, ['Authorization: Basic <key>', 'Authorization: Bearer (nothing after the scheme)', 'Authorization: [redacted] <key>']);
});

t.test('the form drafts make each form’s draft once and give it again', async (t) => {
  const formDraft = createFormDrafts();
  let made = 0;
  const make = (): FindingDraft => {
    made++;
    return keyFormDraft(`form ${made}`);
  };
  const first = formDraft('Authorization: Basic <key>', make);
  t.equal(formDraft('Authorization: Basic <key>', make), first, 'the same draft for the same form');
  t.equal(made, 1, 'made once');
  t.not(formDraft('Authorization: Token <key>', make), first, 'another form, another draft');
  t.equal(made, 2);
  const a = unauthorizedDraft(refused({ authorization: `Token ${KEY}` }), redact, formDraft);
  t.equal(a, unauthorizedDraft(refused({ authorization: 'Token other' }), redact, formDraft), 'two requests of one form: one draft');
});

t.test('the form drafts keep at most 64 forms: the first 64 are kept, later ones made afresh each time', async (t) => {
  const formDraft = createFormDrafts();
  let made = 0;
  const make = (): FindingDraft => {
    made++;
    return keyFormDraft(`form ${made}`);
  };
  const kept = Array.from({ length: 64 }, (_, i) => formDraft(`form ${i}`, make));
  t.equal(made, 64);
  const beyond = formDraft('form 64', make);
  t.not(formDraft('form 64', make), beyond, 'the 65th form is not kept');
  t.equal(made, 66, 'made on each call');
  t.equal(formDraft('form 0', make), kept[0], 'the first form is still kept');
  t.equal(formDraft('form 63', make), kept[63], 'the 64th form is still kept');
  t.equal(made, 66, 'not made again');
});

t.test('an accepted key in a looser form is a warning naming the form, with no refusal status', async (t) => {
  t.strictSame(keyFormDraft('Authorization: bearer <key>'), {
    code: 'key_form',
    severity: 'warning',
    rule: '/components/securitySchemes/bearerAuth',
    subject: 'accepted Authorization: bearer <key>',
    seed: '§5 Authentication',
    sent: 'Authorization: bearer <key>',
    expected: 'Authorization: Bearer <API_KEY> (the scheme as written, one space, the key)',
    message:
      'this server accepted Authorization: bearer <key>, as RFC 6750 allows, but the interface promises only Bearer <API_KEY>: another implementation or a gateway may refuse it',
  });
});
