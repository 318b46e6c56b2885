import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { createRecording } from '../../proxy/recording.js';
import { parseJson } from '../../spec/json/index.js';

const value = (text: string) => {
  const parsed = parseJson(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
};

t.test('every pet of a page or a single answer is kept once, by id, in the order first seen, int64 exact', async (t) => {
  const recording = createRecording(100);
  recording.hear(value('{"id":9007199254740993,"name":"Rex","categoryId":9223372036854775807,"status":"sold"}'));
  recording.hear(value('[{"id":2,"name":"Tom","categoryId":-1},{"id":9007199254740993,"name":"Rex","categoryId":9223372036854775807,"status":"sold"}]'));
  t.equal(recording.size(), 2);
  const file = join(mkdtempSync(join(tmpdir(), 'petstore-recording-')), 'pets.json');
  await recording.write(file);
  const written = readFileSync(file, 'utf8');
  t.match(written, /"id":9007199254740993/);
  t.match(written, /"categoryId":9223372036854775807/);
  t.ok(written.indexOf('Rex') < written.indexOf('Tom'), 'in the order first seen');
});

t.test('what is not a pet is not kept: no id, an id that is not a positive int64, an invalid NewPet', async (t) => {
  const recording = createRecording(100);
  recording.hear(value('{"name":"no id","categoryId":1}'));
  recording.hear(value('{"id":0,"name":"zero","categoryId":1}'));
  recording.hear(value('{"id":"3","name":"string id","categoryId":1}'));
  recording.hear(value('{"id":4,"name":5,"categoryId":1}'));
  recording.hear(value('{"code":"unauthorized","message":"no key","status":401}'));
  t.equal(recording.size(), 0);
});

t.test('the recording holds at most its capacity', async (t) => {
  const recording = createRecording(2);
  for (let id = 1; id <= 5; id++) recording.hear(value(`{"id":${id},"name":"p${id}","categoryId":1}`));
  t.equal(recording.size(), 2);
});
