// The page's own scripts (src/server/docs-scripts.ts): Swagger UI's set-up,
// made per server (the development key only when none was configured), and
// the findings panel with its journal entries. What they do in a browser is
// test/long/docs-page.test.ts; here, what they are, and that each parses.
import t from 'tap';
import { FINDINGS_JS, initScript } from '../../../src/server/docs-scripts.js';

/** Whether a script parses as a browser's classic script would (new Function parses without running it). */
function parses(script: string): boolean {
  try {
    new Function(script);
    return true;
  } catch {
    return false;
  }
}

t.test('the set-up shows the document, keeps the key given to Authorize, and asks nothing of the internet', async (t) => {
  const script = initScript({ specUrl: '/docs/openapi.json' });
  t.ok(parses(script), 'it parses');
  t.match(script, /^window\.ui = SwaggerUIBundle\(\{/);
  t.match(script, 'url: "/docs/openapi.json"');
  t.match(script, "dom_id: '#swagger-ui'");
  t.match(script, 'validatorUrl: null');
  t.match(script, 'persistAuthorization: true', 'a reload does not forget the key');
  t.notMatch(script, 'preauthorizeApiKey', 'no key given: none given to the page');
  t.notMatch(script, 'onComplete');
});

t.test('with the development key, the page is authorized with it once the document has loaded', async (t) => {
  const script = initScript({ specUrl: '/docs/openapi.json', developmentKey: { scheme: 'bearerAuth', key: 'petstore-dev-key' } });
  t.ok(parses(script), 'it parses');
  t.match(script, 'onComplete: () => window.ui.preauthorizeApiKey("bearerAuth", "petstore-dev-key"),');
  t.match(script, 'persistAuthorization: true');
  const odd = initScript({ specUrl: '/docs/openapi.json', developmentKey: { scheme: "a'b", key: 'k"</script>' } });
  t.ok(parses(odd), 'a name or key is a JSON string in the script, whatever it holds');
  t.match(odd, 'preauthorizeApiKey("a\'b", "k\\"</script>")');
});

t.test('the findings panel reads the findings and the journal with the key given to Authorize, as text only', async (t) => {
  t.ok(parses(FINDINGS_JS), 'it parses');
  t.match(FINDINGS_JS, 'ask("/__control/findings", k)', 'it reads the findings');
  t.match(FINDINGS_JS, `ask("/__control/journal" + '?limit=' + limit, k)`, 'and the journal, as far back as the request');
  t.match(FINDINGS_JS, "Authorization: 'Bearer ' + k", 'with the key given to Authorize');
  t.match(FINDINGS_JS, 'window.ui.getStore().subscribe(', 'at once when Authorize changes');
  t.match(FINDINGS_JS, 'is no longer in the journal', 'it says when an entry has left the journal');
  t.notMatch(FINDINGS_JS, /innerHTML|outerHTML|insertAdjacentHTML|document\.write/, 'findings and entries quote what clients sent: never written as markup');
});
