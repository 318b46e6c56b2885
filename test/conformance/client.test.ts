import t from 'tap';
import { basePathOf, joinUrl } from '../../conformance/client.js';

// --base-url is typed by people: the operations' paths follow its path
// however many slashes it ends with, and a root base URL has none.
t.test('the base path of a base URL drops its trailing slashes, and only those', async (t) => {
  t.equal(basePathOf('http://127.0.0.1:4010/v1'), '/v1');
  t.equal(basePathOf('http://127.0.0.1:4010/v1/'), '/v1');
  t.equal(basePathOf('http://127.0.0.1:4010/v1//'), '/v1');
  t.equal(basePathOf('https://api.example.com/petstore/v10/'), '/petstore/v10');
  t.equal(basePathOf('http://127.0.0.1:4010/a//b/v1'), '/a//b/v1', 'slashes inside the path stay');
  t.equal(basePathOf('http://127.0.0.1:4010'), '', 'the root');
  t.equal(basePathOf('http://127.0.0.1:4010/'), '', 'the root, spelled with its slash');
});

t.test('an operation path joins the base URL after its trailing slashes', async (t) => {
  t.equal(joinUrl('http://127.0.0.1:4010/v1//', '/pets'), 'http://127.0.0.1:4010/v1/pets');
  t.equal(joinUrl('http://127.0.0.1:4010/v1', '/pets/1'), 'http://127.0.0.1:4010/v1/pets/1');
});
