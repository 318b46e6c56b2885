// How the run reached its target, in one line every report carries: a run
// through a proxy, with another CA, a client certificate, extra fields or
// without verifying certificates tested something other than a direct,
// verified connection. A direct connection says nothing.
import t from 'tap';
import { describeConnection } from '../../../conformance/reporters/connection.js';

t.test('a direct, verified connection has nothing to say', async (t) => {
  t.equal(describeConnection(undefined), undefined);
  t.equal(describeConnection({}), undefined);
  t.equal(describeConnection({ insecure: false, extraCa: false, clientCertificate: false, headers: [] }), undefined, 'every fact false or empty');
  t.equal(describeConnection({ rerunOptions: ['--ca', 'ca.pem'] }), undefined, 'the rerun words alone are no fact about the connection');
});

t.test('each way of reaching the target is said on its own, with the option that chose it', async (t) => {
  t.equal(describeConnection({ insecure: true }), 'TLS certificates NOT verified (--insecure)');
  t.equal(describeConnection({ proxy: 'http://proxy.example:3128' }), 'through the proxy http://proxy.example:3128');
  t.equal(describeConnection({ extraCa: true }), 'an extra CA trusted (--ca)');
  t.equal(describeConnection({ clientCertificate: true }), 'a client certificate presented (--cert)');
  t.equal(describeConnection({ headers: ['x-gateway-key', 'x-tenant'] }), 'extra fields on every request: x-gateway-key, x-tenant (--header)');
});

t.test('several at once are joined by semicolons, the unverified certificates first', async (t) => {
  t.equal(
    describeConnection({ headers: ['x-gateway-key'], clientCertificate: true, extraCa: true, proxy: 'http://p:8080', insecure: true }),
    'TLS certificates NOT verified (--insecure); through the proxy http://p:8080; an extra CA trusted (--ca); a client certificate presented (--cert); extra fields on every request: x-gateway-key (--header)',
  );
  t.equal(describeConnection({ proxy: 'http://p:8080', insecure: false, extraCa: true }), 'through the proxy http://p:8080; an extra CA trusted (--ca)');
});
