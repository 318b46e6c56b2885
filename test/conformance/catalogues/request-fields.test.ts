// The header fields and query forms that intermediaries and frameworks act on
// (conformance/catalogues/request-fields.ts). Each entry is there for a
// server that acts on that one field or value: one that skips the key for a
// client address it trusts, routes by a rewrite field, takes the key from a
// cookie. The corpus has broken fixtures for some (see docs/mutation.md), and
// one for every field would be tuned to the catalogue; what each entry is, is
// stated here by the standard or the framework that gives it its meaning.
import { isIP } from 'node:net';
import t from 'tap';
import { QUERY_FORMS, REQUEST_FIELDS } from '../../../conformance/catalogues/request-fields.js';
import { imfFixdate } from '../../../conformance/fields.js';
import { describeOperations } from '../../../spec/operations.js';
import { openapi } from '../../../spec/openapi.js';

const INPUTS = { apiKey: 'k3y-Example_1.~', basePath: '/v1' };
const SPEC_PATHS = new Set(describeOperations(openapi).map((op) => op.path));
/** RFC 9110 §5.6.2 token. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Methods RFC 9110 §9.2.1 calls safe, of those the entries name. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE']);

const entries = (name: string) => REQUEST_FIELDS.filter((f) => f.name === name).map((f) => ({ ...f, text: f.value(INPUTS) }));
const loopback = (text: string) => isIP(text) === 4 && text.startsWith('127.');

t.test('every field is a token named in lower case, with a value that is a text', async (t) => {
  for (const f of REQUEST_FIELDS) {
    t.ok(TOKEN.test(f.name) && f.name === f.name.toLowerCase(), `${f.name} is a field name`);
    t.equal(typeof f.value(INPUTS), 'string', `${f.name}: a value`);
    t.notOk(/[\r\n\0]/.test(f.value(INPUTS)), `${f.name}: a value a field can carry`);
  }
});

t.test('a method override names a method; only one naming a safe method is safe to send to a staging', async (t) => {
  for (const name of ['x-http-method-override', 'x-http-method', 'x-method-override', 'x-original-method', 'access-control-request-method']) {
    const found = entries(name);
    t.ok(found.length > 0, `${name} is in the catalogue`);
    for (const f of found) {
      t.ok(METHODS.has(f.text), `${name}: ${f.text} is a method`);
      // A CORS preflight's method asks for nothing itself; every other override asks for the method it names.
      if (name !== 'access-control-request-method') t.equal(f.safe, SAFE_METHODS.has(f.text), `${name}: ${f.text} is ${f.safe ? '' : 'not '}safe`);
    }
  }
  const overrides = entries('x-http-method-override').map((f) => f.text);
  t.ok(
    overrides.some((m) => SAFE_METHODS.has(m)) && overrides.filter((m) => !SAFE_METHODS.has(m)).length >= 2,
    `X-HTTP-Method-Override names a safe method and two or more unsafe ones: ${overrides.join(', ')}`,
  );
  t.notOk(SAFE_METHODS.has(entries('x-http-method')[0]!.text), 'X-HTTP-Method names an unsafe method');
  t.notOk(SAFE_METHODS.has(entries('x-method-override')[0]!.text), 'X-Method-Override names an unsafe method');
  t.notOk(SAFE_METHODS.has(entries('access-control-request-method')[0]!.text), 'a preflight asks for an unsafe method');
});

t.test('a rewrite field names a path of the interface under the base path', async (t) => {
  for (const name of ['x-original-url', 'x-rewrite-url']) {
    const [f] = entries(name);
    t.ok(f!.text.startsWith(`${INPUTS.basePath}/`), `${name}: ${f!.text} is under ${INPUTS.basePath}`);
    t.ok(SPEC_PATHS.has(f!.text.slice(INPUTS.basePath.length)), `${name}: ${f!.text} is a path of the spec`);
  }
});

t.test('a client address is one an allow-list trusts: the loopback', async (t) => {
  for (const name of ['x-forwarded-for', 'x-real-ip', 'x-client-ip', 'true-client-ip']) {
    const [f] = entries(name);
    t.ok(loopback(f!.text), `${name}: ${f!.text}`);
  }
  // RFC 7239 §4: forwarded-pair *( ";" forwarded-pair ), each token=value.
  const pairs = new Map(
    entries('forwarded')[0]!
      .text.split(';')
      .map((pair) => {
        const at = pair.indexOf('=');
        return [pair.slice(0, at).toLowerCase(), pair.slice(at + 1)] as const;
      }),
  );
  t.ok(loopback(pairs.get('for') ?? ''), 'Forwarded: for= the loopback');
  t.equal(pairs.get('proto'), 'https', 'Forwarded: proto=https');
  t.equal(pairs.get('host'), 'localhost', 'Forwarded: host=localhost');
});

t.test('the forwarded host, scheme and prefix are those a server trusts: this machine, TLS, the root', async (t) => {
  t.equal(entries('x-forwarded-host')[0]!.text, 'localhost', 'X-Forwarded-Host names this machine');
  t.equal(entries('x-forwarded-proto')[0]!.text, 'https', 'X-Forwarded-Proto claims TLS (Express req.secure, Rails force_ssl)');
  t.equal(entries('x-forwarded-prefix')[0]!.text, '/', 'X-Forwarded-Prefix moves the interface to the root');
});

t.test('a field that carries the key elsewhere carries exactly the key, as its scheme writes it', async (t) => {
  const elsewhere = REQUEST_FIELDS.filter((f) => f.keyElsewhere);
  for (const f of elsewhere) {
    const text = f.value(INPUTS);
    if (f.name === 'cookie') {
      // RFC 6265 §4.2.1: cookie-name "=" cookie-value.
      const at = text.indexOf('=');
      t.ok(TOKEN.test(text.slice(0, at)), `Cookie: ${text.slice(0, at)} is a cookie name`);
      t.equal(text.slice(at + 1), INPUTS.apiKey, 'Cookie: the key is the value');
    } else if (/authorization$/.test(f.name)) t.equal(text, `Bearer ${INPUTS.apiKey}`, `${f.name}: Bearer and the key`);
    else t.equal(text, INPUTS.apiKey, `${f.name}: the key itself`);
    t.ok(f.safe, `${f.name} is safe to send: it asks for no change`);
  }
  t.same(
    elsewhere.map((f) => f.name),
    ['x-api-key', 'api-key', 'x-auth-token', 'x-access-token', 'x-authorization', 'proxy-authorization', 'cookie', 'cookie'],
  );
  t.same(
    entries('cookie').map((f) => f.text.slice(0, f.text.indexOf('='))),
    ['access_token', 'session'],
    'the two cookie names session middleware reads',
  );
});

t.test('the conditional and range fields are well formed and would change the answer', async (t) => {
  t.equal(entries('if-none-match')[0]!.text, '*', 'If-None-Match: * (any current representation, RFC 9110 §13.1.2)');
  const since = imfFixdate(entries('if-modified-since')[0]!.text);
  t.ok(since !== undefined && since > Date.now(), 'If-Modified-Since: an IMF-fixdate in the future');
  const range = /^bytes=(\d+)-(\d+)$/.exec(entries('range')[0]!.text);
  t.ok(range && Number(range[1]) <= Number(range[2]), 'Range: one byte range, first to last (RFC 9110 §14.1.2)');
  t.equal(entries('cache-control')[0]!.text, 'no-cache', 'Cache-Control: no-cache (RFC 9111 §5.2.1.4)');
  t.equal(entries('max-forwards')[0]!.text, '0', 'Max-Forwards: 0, which a proxy answers itself (RFC 9110 §7.6.2)');
});

t.test('the content-negotiation and CORS fields name another origin, another type, a coding', async (t) => {
  const origin = new URL(entries('origin')[0]!.text);
  t.equal(origin.origin, entries('origin')[0]!.text, 'Origin: a serialized origin');
  t.ok(!['127.0.0.1', 'localhost'].includes(origin.hostname), 'Origin: not the target itself');
  t.notOk(entries('accept')[0]!.text.includes('json'), 'Accept: a type other than JSON');
  t.ok(['gzip', 'deflate', 'br', 'zstd'].includes(entries('content-encoding')[0]!.text), 'Content-Encoding: a coding body parsers inflate');
});

t.test('a query form that carries the key carries exactly the key; the others name a callback or an unsafe method', async (t) => {
  const names = QUERY_FORMS.map((q) => {
    const params = [...new URLSearchParams(q.query(INPUTS))];
    t.equal(params.length, 1, `${q.query(INPUTS)}: one parameter`);
    const [name, value] = params[0] ?? ['', ''];
    if (q.keyElsewhere) t.equal(value, INPUTS.apiKey, `${name}: the key, encoded and read back`);
    else if (name === 'callback') t.ok(/^[A-Za-z_$][\w$]*$/.test(value), `callback=${value}: a script identifier`);
    else if (name === '_method') t.ok(METHODS.has(value) && !SAFE_METHODS.has(value), `_method=${value}: an unsafe method`);
    else t.fail(`${name}: neither a key, a callback nor a method`);
    return name;
  });
  t.same(names, ['api_key', 'apiKey', 'key', 'token', 'access_token', 'callback', '_method', '_method']);
  t.same(
    QUERY_FORMS.filter((q) => q.query(INPUTS).startsWith('_method=')).map((q) => q.query(INPUTS)),
    ['_method=DELETE', '_method=PUT'],
    'both methods a form override names',
  );
});
