// conformance/response-validator.ts: a response is judged by the exact validator and by
// Prism, and Prism is shown only what its verdict reads.
import t from 'tap';
import { createResponseValidator } from '../../conformance/response-validator.js';
import type { WireResponse } from '../../conformance/client.js';
import { operationById, operations } from '../../spec/operations.js';
import { parseJson, type JsonValue } from '../../spec/json/index.js';

const getPet = operationById('getPet');
const PET = '{"id":9007199254740993,"name":"Rex","categoryId":2,"status":"available"}';

function answer(headers: Record<string, string>, text = PET): WireResponse {
  const parsed = parseJson(text);
  return { status: 200, headers, text, json: parsed.ok ? (parsed.value as JsonValue) : undefined, durationMs: 1 };
}

t.test('Prism still sees Content-Type: a Pet sent as text/plain draws its media-type problem', async (t) => {
  const validator = await createResponseValidator(operations);
  const problems = await validator.judge(getPet, answer({ 'content-type': 'text/plain', date: 'Mon, 23 Nov 2026 00:00:00 GMT' }));
  t.ok(
    problems.some((p) => p.startsWith('Prism:')),
    `a Prism problem among: ${problems.join('; ')}`,
  );
});

t.test('a conforming Pet draws no problem, whatever its Date and Content-Length, and an int64 id beyond 2^53 is fine', async (t) => {
  const validator = await createResponseValidator(operations);
  for (const date of ['Mon, 23 Nov 2026 00:00:00 GMT', 'Mon, 23 Nov 2026 00:00:01 GMT']) {
    t.strictSame(await validator.judge(getPet, answer({ 'content-type': 'application/json', 'content-length': String(PET.length), date })), [], date);
  }
});

t.test('a Pet without its required name draws a problem', async (t) => {
  const validator = await createResponseValidator(operations);
  const problems = await validator.judge(getPet, answer({ 'content-type': 'application/json' }, '{"id":1,"categoryId":2}'));
  t.ok(problems.length > 0, problems.join('; '));
});
