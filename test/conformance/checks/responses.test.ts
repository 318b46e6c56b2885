// responses judges every answer of a run by itself, 400s included: an Error
// body whose status member is not the HTTP status (§7: `status` is the HTTP
// status) is valid by the Error schema, so only that judge can see it. Shown
// with a gateway in front of the reference server that writes 422 into the
// Error of every 400 it passes on.
import t from 'tap';
import { runConformance } from '../../../conformance/index.js';
import { startFront } from '../../helpers/front.js';
import { startTestServer } from '../../helpers/server.js';

t.test("a 400 whose Error says status 422 fails the rule over every answer, named as the 400's problem", async (t) => {
  const { url, key } = await startTestServer(t);
  const front = await startFront(t, url, async (_, forward) => {
    const answer = await forward();
    return answer.status === 400 ? { ...answer, body: Buffer.from(answer.body.toString().replace(/"status":400\b/, '"status":422')) } : answer;
  });
  const result = await runConformance({
    baseUrl: front,
    apiKey: key,
    seed: 1,
    runs: 10,
    families: ['limits', 'responses'],
    checkIds: ['limits.listPets.out-of-range', 'responses'],
  });
  const judged = result.checks.filter((c) => c.family === 'responses');
  t.ok(judged.length > 0);
  t.ok(
    judged.some(
      (c) =>
        c.status === 'failed' &&
        /the 400 answer to GET \/pets\?limit=\S+ has no valid Error body: `status` is 422 but the HTTP status is 400/.test(c.failure?.message ?? ''),
    ),
    judged.map((c) => `${c.id}: ${c.status} ${c.failure?.message.split('\n')[0] ?? ''}`).join('; '),
  );
});
