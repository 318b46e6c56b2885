// `petstore proxy`'s usage errors: each a clear line and exit 2, before anything listens.
import t from 'tap';
import { runCli } from '../helpers/run-conform.js';

t.test('an upstream that is not an http(s) URL, or none, is a usage error', async (t) => {
  const none = await runCli(['proxy']);
  t.equal(none.code, 2);
  t.match(none.stderr, /required option '--upstream <url>'/);
  const ftp = await runCli(['proxy', '--upstream', 'ftp://files.example/v1']);
  t.equal(ftp.code, 2);
  t.match(ftp.stderr, /petstore: --upstream ftp:\/\/files\.example\/v1: the upstream must be an http: or https: URL/);
  const garbled = await runCli(['proxy', '--upstream', 'staging/v1']);
  t.equal(garbled.code, 2);
  t.match(garbled.stderr, /petstore: --upstream staging\/v1: /);
});

t.test('the TLS files and --header are read as conform reads them: a bad one is named', async (t) => {
  const ca = await runCli(['proxy', '--upstream', 'https://staging.example/v1', '--ca', '/no/such/ca.pem']);
  t.equal(ca.code, 2);
  t.match(ca.stderr, /--ca/);
  const header = await runCli(['proxy', '--upstream', 'https://staging.example/v1', '--header', 'no colon here']);
  t.equal(header.code, 2);
  t.match(header.stderr, /--header "no colon here": expected 'Name: value'/);
});
