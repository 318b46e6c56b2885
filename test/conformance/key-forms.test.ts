// The API key and the texts derived from it that give it away
// (conformance/key-forms.ts): every report writes each as the POSIX shell
// expression that rebuilds it from $PETSTORE_API_KEY; the key as RFC 7617
// Basic credentials, with its case swapped, cut short or changed in the middle.
import { spawnSync } from 'node:child_process';
import t from 'tap';
import {
  basicCredentials,
  KEY_VARIABLE,
  keyForms,
  replaceAt,
  replaceMiddle,
  secretForms,
  splitKeyForms,
  swapCase,
  type KeyForm,
} from '../../conformance/key-forms.js';

/** What /bin/sh makes of each shell word, given the environment. */
function evaluate(words: readonly string[], env: Record<string, string>): string[] {
  const run = spawnSync('sh', ['-c', `printf '%s\\0' ${words.join(' ')}`], { env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...env }, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(run.stderr);
  return run.stdout.split('\0').slice(0, -1);
}

const KEY = 'sk_live-Ab12Cd34';

t.test('the key as Basic credentials is base64 of the key, a colon and an empty password (RFC 7617 §2)', async (t) => {
  t.equal(basicCredentials('Aladdin'), 'QWxhZGRpbjo=');
  t.equal(Buffer.from(basicCredentials(KEY), 'base64').toString(), `${KEY}:`);
});

t.test('a swapped case always differs from the key', async (t) => {
  t.equal(swapCase('AbC1-z'), 'aBc1-Z');
  t.equal(swapCase('1234-5678'), '1234-5678X', 'no letter to swap: one is added');
});

t.test('the key changed in one place keeps its length, start and end', async (t) => {
  t.equal(replaceMiddle('abcdef'), 'abcQef', 'the middle character, 0-based index 3');
  t.equal(replaceMiddle('abcQef'), 'abcRef', 'a Q becomes R, so it always changes');
  t.equal(replaceAt('abcdef', -1), 'abcdeQ', 'a negative index counts from the end');
  t.equal(replaceAt('abcdef', 0), 'Qbcdef');
  const changed = replaceMiddle(KEY);
  t.equal(changed.length, KEY.length);
  t.not(changed, KEY);
  t.match(changed, /^[A-Za-z0-9\-._~+/]+=*$/, 'still a b64token (RFC 6750)');
});

t.test('the forms of a key: the key, Basic, swapped case, the key less its last character, the middle changed; longest first', async (t) => {
  const forms = keyForms(KEY);
  t.strictSame(
    forms.map((f) => f.text),
    [basicCredentials(KEY), KEY, swapCase(KEY), replaceMiddle(KEY), KEY.slice(0, -1)].sort((a, b) => b.length - a.length),
  );
  t.strictSame(
    forms.map((f) => f.shown),
    // biome-ignore lint/suspicious/noTemplateCurlyInString: ${VAR%?} is the shell's own syntax, as reports show it.
    ['base64($PETSTORE_API_KEY:)', '$PETSTORE_API_KEY', 'swapcase($PETSTORE_API_KEY)', 'midchange($PETSTORE_API_KEY)', '${PETSTORE_API_KEY%?}'],
  );
  t.equal(KEY_VARIABLE, 'PETSTORE_API_KEY');
  for (let i = 1; i < forms.length; i++) t.ok(forms[i - 1]!.text.length >= forms[i]!.text.length, `${forms[i]!.shown} after ${forms[i - 1]!.shown}`);
});

t.test('each shell word rebuilds its text from $PETSTORE_API_KEY (run through /bin/sh)', async (t) => {
  for (const key of [KEY, 'abcdefgh', 'Q-ZZZZ-q', 'x'.repeat(40)]) {
    const forms = keyForms(key);
    t.strictSame(
      evaluate(
        forms.map((f) => f.shell),
        { [KEY_VARIABLE]: key },
      ),
      forms.map((f) => f.text),
      key,
    );
  }
});

t.test('the Basic form rebuilds a key of any length (base64 wraps its output at 76 columns: a key of 57 characters or more)', async (t) => {
  const key = 'k'.repeat(64);
  const basic = keyForms(key).find((f) => f.shown.startsWith('base64'))!;
  t.strictSame(evaluate([basic.shell], { [KEY_VARIABLE]: key }), [basic.text]);
});

t.test('every shell form is one line, so that a replay line stays one command', async (t) => {
  for (const form of keyForms('k'.repeat(64))) t.notMatch(form.shell, /[\r\n]/, form.shown);
});

t.test('derived texts shorter than 6 characters, or holding the key, are not forms; no key, no form', async (t) => {
  t.strictSame(
    keyForms('abcde').map((f) => f.shown),
    ['base64($PETSTORE_API_KEY:)', '$PETSTORE_API_KEY'],
  );
  t.notOk(
    keyForms('1234-5678').some((f) => f.shown.startsWith('swapcase')),
    'the key with an X added holds the key',
  );
  t.strictSame(keyForms(''), []);
});

t.test('other secrets are forms of their own, read from their variable; empty ones are none', async (t) => {
  const forms = secretForms({
    apiKey: KEY,
    others: [
      { text: 'gateway-token-that-is-long-enough', variable: 'PETSTORE_HEADER_X_GATEWAY' },
      { text: '', variable: 'EMPTY' },
    ],
  });
  const gateway = forms.find((f) => f.text === 'gateway-token-that-is-long-enough');
  t.strictSame(gateway, { text: 'gateway-token-that-is-long-enough', shell: '"$PETSTORE_HEADER_X_GATEWAY"', shown: '$PETSTORE_HEADER_X_GATEWAY' });
  t.equal(forms[0], gateway, 'the longest first');
  t.notOk(forms.some((f) => f.text === ''));
  t.equal(forms.length, keyForms(KEY).length + 1);
  t.strictSame(secretForms(KEY), keyForms(KEY), 'a string is the API key alone');
});

t.test('a text splits into literal pieces and the forms it holds, in order, the key winning over its own prefix', async (t) => {
  const shown = (pieces: (string | KeyForm)[]) => pieces.map((p) => (typeof p === 'string' ? p : `<${p.shown}>`)).join('');
  t.equal(
    shown(splitKeyForms(`Bearer ${KEY} and ${KEY.slice(0, -1)}, Basic ${basicCredentials(KEY)}`, KEY)),
    // biome-ignore lint/suspicious/noTemplateCurlyInString: ${VAR%?} is the shell's own syntax, as reports show it.
    'Bearer <$PETSTORE_API_KEY> and <${PETSTORE_API_KEY%?}>, Basic <base64($PETSTORE_API_KEY:)>',
  );
  t.strictSame(splitKeyForms(KEY, KEY), [keyForms(KEY).find((f) => f.text === KEY)], 'no empty literal pieces');
  t.strictSame(splitKeyForms('nothing here', KEY), ['nothing here']);
  t.strictSame(splitKeyForms('no key at all', ''), ['no key at all']);
});

t.test("a key's regular-expression characters are matched as themselves", async (t) => {
  const key = 'k.e+y(1)*?[x]';
  t.strictSame(splitKeyForms('kXe+y(1)*?[x] is not it', key), ['kXe+y(1)*?[x] is not it']);
  t.equal(splitKeyForms(`>${key}<`, key).length, 3);
});
