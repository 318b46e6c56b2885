/**
 * The drafts about the API key: why a request was refused 401 (no key, two
 * Authorization fields, a key elsewhere, a header in a form that is not
 * `Bearer <key>`, a key not accepted), and the warning of an accepted key in
 * a looser form. Those that never vary are made once; those of a header's
 * form once per form (FormDrafts).
 */
import { statusOf } from '../errors.js';
import { authorizationForm, isCanonicalBearer, keyElsewhere } from './auth-form.js';
import type { CheckedRequest } from './checked-request.js';
import type { FindingDraft } from './finding.js';
import { AUTH_RULE, AUTH_SEED } from './pointers.js';

/** The draft of a header's form: the one made for the form before, else `make()`'s. */
export type FormDrafts = (form: string, make: () => FindingDraft) => FindingDraft;

const authDraft = (subject: string, sent: string, message: string): FindingDraft => ({
  code: 'unauthorized',
  severity: 'error',
  status: statusOf('unauthorized'),
  rule: AUTH_RULE,
  subject,
  seed: AUTH_SEED,
  sent,
  expected: 'Authorization: Bearer <API_KEY>, with a key this server accepts',
  message,
});
const REFUSED_KEY = authDraft(
  'invalid',
  'Authorization: Bearer <a key this server does not accept>',
  'the key is not one this server accepts: check which key the client sends',
);
const NO_HEADER = authDraft('none', 'no Authorization header', 'the request carries no key: send Authorization: Bearer <API_KEY>');
const REPEATED = authDraft(
  'repeated',
  'two Authorization fields',
  'the request carries two Authorization fields: send exactly one, Authorization: Bearer <API_KEY>',
);

/** Drafts by the form of the header, made once per form (the rule keeps at most a bounded number of them). */
export function createFormDrafts(): FormDrafts {
  const byForm = new Map<string, FindingDraft>();
  return (form, make) => {
    let draft = byForm.get(form);
    if (draft === undefined) {
      draft = make();
      // Bounded: past 64 forms, each is made afresh (the ledger still bounds what it keeps).
      if (byForm.size < 64) byForm.set(form, draft);
    }
    return draft;
  };
}

/** The draft of a request refused 401: what is wrong with the key it sent, or with how it sent it. */
export function unauthorizedDraft(x: CheckedRequest, redact: (text: string) => string, formDraft: FormDrafts): FindingDraft {
  const header = x.req.headers['authorization'];
  if (typeof header !== 'string' || header.trim() === '') {
    const elsewhere = keyElsewhere({ headers: x.req.headers, url: x.req.url });
    if (elsewhere === undefined) return NO_HEADER;
    return formDraft(`elsewhere ${elsewhere}`, () =>
      authDraft(
        `elsewhere ${elsewhere}`,
        `no Authorization header; a key in ${elsewhere}?`,
        `the key goes in Authorization: Bearer <API_KEY>, not in ${elsewhere}`,
      ),
    );
  }
  if (countAuthorization(x.req.rawHeaders) > 1) return REPEATED;
  if (isCanonicalBearer(header)) return REFUSED_KEY;
  const form = authorizationForm(header, redact);
  // A Bearer key in a looser form that was still refused: the key itself is wrong.
  if (/^Authorization: bearer /i.test(form) && form.endsWith('<key>')) return REFUSED_KEY;
  return formDraft(form, () =>
    authDraft(form, form, `send the key as Authorization: Bearer <API_KEY> (the Bearer scheme, one space, the key), not as ${form}`),
  );
}

/** The warning of an accepted key sent as `form` (as authorizationForm shows it) rather than `Bearer <key>`. */
export function keyFormDraft(form: string): FindingDraft {
  return {
    code: 'key_form',
    severity: 'warning',
    rule: AUTH_RULE,
    subject: `accepted ${form}`,
    seed: AUTH_SEED,
    sent: form,
    expected: 'Authorization: Bearer <API_KEY> (the scheme as written, one space, the key)',
    message: `this server accepted ${form}, as RFC 6750 allows, but the interface promises only Bearer <API_KEY>: another implementation or a gateway may refuse it`,
  };
}

function countAuthorization(rawHeaders: readonly string[]): number {
  let seen = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if ((rawHeaders[i] as string).toLowerCase() === 'authorization') seen++;
  return seen;
}
