// The request methods the suite sends (conformance/catalogues/methods.ts): the
// IANA HTTP Method Registry's (RFC 9110 §16.1) plus PURGE, one entry a method,
// with the registry's `safe` column; CONNECT (RFC 9110 §9.3.6) and PRI are
// left out. Which methods the suite may send without a key is judged in
// test/conformance/checks/no-credential.test.ts; this says what the list holds.
import t from 'tap';
import { METHODS } from '../../../conformance/catalogues/methods.js';

/** RFC 9110 §5.6.2: token = 1*tchar; §9.1: method = token. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * The IANA HTTP Method Registry's rows for these methods, as
 * https://www.iana.org/assignments/http-methods gives them (Safe, Idempotent),
 * written here from the registry, not read from the catalogue.
 */
const REGISTRY: Readonly<Record<string, { safe: boolean; idempotent: boolean }>> = {
  GET: { safe: true, idempotent: true },
  HEAD: { safe: true, idempotent: true },
  POST: { safe: false, idempotent: false },
  PUT: { safe: false, idempotent: true },
  DELETE: { safe: false, idempotent: true },
  OPTIONS: { safe: true, idempotent: true },
  TRACE: { safe: true, idempotent: true },
  PATCH: { safe: false, idempotent: false },
  QUERY: { safe: true, idempotent: true },
  PROPFIND: { safe: true, idempotent: true },
  PROPPATCH: { safe: false, idempotent: true },
  MKCOL: { safe: false, idempotent: true },
  COPY: { safe: false, idempotent: true },
  MOVE: { safe: false, idempotent: true },
  LOCK: { safe: false, idempotent: false },
  UNLOCK: { safe: false, idempotent: true },
  SEARCH: { safe: true, idempotent: true },
  REPORT: { safe: true, idempotent: true },
  MERGE: { safe: false, idempotent: true },
  BIND: { safe: false, idempotent: true },
  LINK: { safe: false, idempotent: true },
  UNLINK: { safe: false, idempotent: true },
};

/** RFC 9110 §9.3: the section of each method it defines. */
const RFC9110_SECTIONS: Readonly<Record<string, string>> = {
  GET: '9.3.1',
  HEAD: '9.3.2',
  POST: '9.3.3',
  PUT: '9.3.4',
  DELETE: '9.3.5',
  CONNECT: '9.3.6',
  OPTIONS: '9.3.7',
  TRACE: '9.3.8',
};

const names = METHODS.map((m) => m.method);

t.test('every method is an RFC 9110 token, in the upper case the registry spells it (method names are case-sensitive: §9.1)', async (t) => {
  t.ok(METHODS.length >= 20, `${METHODS.length} methods`);
  for (const { method } of METHODS) {
    t.match(method, TOKEN, `${method} is a token`);
    t.equal(method, method.toUpperCase(), `${method} is upper case`);
  }
});

t.test('each method is listed once', async (t) => {
  t.strictSame(
    names.filter((name, i) => names.indexOf(name) !== i),
    [],
  );
});

t.test("each registered method carries the registry's Safe flag; none marked safe is one the registry calls non-idempotent", async (t) => {
  for (const { method, safe } of METHODS.filter((m) => m.method in REGISTRY)) {
    t.equal(safe, REGISTRY[method]!.safe, `${method}: safe is ${REGISTRY[method]!.safe}`);
    // RFC 9110 §9.2.2: every safe method is idempotent.
    if (safe) t.ok(REGISTRY[method]!.idempotent, `${method} is safe, so idempotent`);
  }
  t.strictSame(
    names.filter((name) => !(name in REGISTRY)),
    ['PURGE'],
    'PURGE is the one method the registry lacks',
  );
});

t.test('the unregistered PURGE is said to be so and is not safe (it asks a cache to drop what it holds)', async (t) => {
  const purge = METHODS.find((m) => m.method === 'PURGE');
  t.ok(purge, 'PURGE is there');
  t.equal(purge!.safe, false);
  t.match(purge!.source, /not registered/);
  t.strictSame(
    METHODS.filter((m) => /not registered/.test(m.source)).map((m) => m.method),
    ['PURGE'],
  );
});

t.test('every method RFC 9110 defines is there but CONNECT; CONNECT and PRI never are (no resource is asked for)', async (t) => {
  for (const [method, section] of Object.entries(RFC9110_SECTIONS)) {
    const entry = METHODS.find((m) => m.method === method);
    if (method === 'CONNECT') {
      t.notOk(entry, 'CONNECT is left out (RFC 9110 §9.3.6: a tunnel)');
      continue;
    }
    t.ok(entry, `${method} is there`);
    t.equal(entry?.source, `RFC 9110 §${section}`, `${method} cites RFC 9110 §${section}`);
  }
  t.notOk(names.includes('PRI'), 'PRI is the HTTP/2 preface, no method');
});

t.test('every entry names where it is defined', async (t) => {
  for (const { method, source } of METHODS) t.match(source, /^(RFC \d+( §[\d.]+)?|draft-ietf-[a-z0-9-]+|not registered \(.+\))$/, `${method}: ${source}`);
});
