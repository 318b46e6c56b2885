// Issue 17 §1: `prism mock spec/openapi.json` (Prism's CLI, a dev dependency)
// serves the spec's examples: the operations' answers, and the Error examples
// of 400, 401 and 404 when a request calls for them.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { request } from 'undici';
import { openapi } from '../../../spec/openapi.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const example = (path: '/pets' | '/pets/{petId}', method: 'get' | 'post', status: string): unknown => {
  const op = openapi.paths[path][method as keyof (typeof openapi.paths)[typeof path]] as { responses: Record<string, unknown> };
  let response = op.responses[status] as { $ref?: string; content?: { 'application/json': { example: unknown } } };
  if (response.$ref) response = openapi.components.responses[response.$ref.split('/').pop() as keyof typeof openapi.components.responses];
  return response.content?.['application/json'].example;
};

t.test('prism mock spec/openapi.json answers every operation with its examples', async (t) => {
  const port = await freePort();
  const prism = spawn(
    process.execPath,
    ['node_modules/@stoplight/prism-cli/dist/index.js', 'mock', 'spec/openapi.json', '-p', String(port), '-h', '127.0.0.1'],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  t.teardown(() => void prism.kill('SIGKILL'));
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Prism did not start: ${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Prism is listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    prism.stdout.on('data', onData);
    prism.stderr.on('data', onData);
  });
  const base = `http://127.0.0.1:${port}`;
  const call = async (method: string, path: string, headers: Record<string, string> = {}, body?: string) => {
    const res = await request(base + path, { method, headers, body: body ?? null });
    return { status: res.statusCode, body: await res.body.json() };
  };
  const key = { authorization: 'Bearer any-key' };
  const json = { ...key, 'content-type': 'application/json' };

  t.strictSame(await call('GET', '/pets', key), { status: 200, body: example('/pets', 'get', '200') }, 'listPets: the list example');
  t.strictSame(await call('POST', '/pets', json, '{"name":"Rex","categoryId":1}'), { status: 201, body: example('/pets', 'post', '201') }, 'createPet: Rex');
  t.strictSame(await call('GET', '/pets/1', key), { status: 200, body: example('/pets/{petId}', 'get', '200') }, 'getPet: Rex');
  t.strictSame(await call('POST', '/pets', json, '{"name":"Rex"}'), { status: 400, body: example('/pets', 'post', '400') }, 'an invalid body: the 400 example');
  t.strictSame(await call('GET', '/pets'), { status: 401, body: example('/pets', 'get', '401') }, 'no key: the 401 example');
  t.strictSame(
    await call('GET', '/pets/1', { ...key, prefer: 'code=404' }),
    { status: 404, body: example('/pets/{petId}', 'get', '404') },
    'Prefer: code=404: the 404 example',
  );
});
