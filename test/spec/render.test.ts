// STYLE habit 2: spec/openapi.ts is the source; spec/openapi.json is generated
// for tools that read JSON, and this test fails when it is stale.
import { readFileSync } from 'node:fs';
import t from 'tap';
import { openapi } from '../../spec/openapi.js';
import { renderControlSpecJson, renderSpecJson } from '../../spec/render.js';

t.test('spec/openapi.json is what spec/openapi.ts renders (else run `npm run spec:json`)', async (t) => {
  const onDisk = readFileSync(new URL('../../spec/openapi.json', import.meta.url), 'utf8');
  t.ok(onDisk === renderSpecJson(), 'spec/openapi.json is stale: run `npm run spec:json` and commit the result');
});

t.test('renderSpecJson is the spec object as indented JSON ending in a newline', async (t) => {
  const text = renderSpecJson();
  t.strictSame(JSON.parse(text), JSON.parse(JSON.stringify(openapi)));
  t.ok(text.endsWith('}\n'));
  t.match(text, /^\{\n {2}"openapi": "3\.1\.0",/);
});

t.test('spec/control-openapi.json is what spec/control-openapi.ts renders (else run `npm run spec:json`)', async (t) => {
  const onDisk = readFileSync(new URL('../../spec/control-openapi.json', import.meta.url), 'utf8');
  t.ok(onDisk === renderControlSpecJson(), 'spec/control-openapi.json is stale: run `npm run spec:json` and commit the result');
});
