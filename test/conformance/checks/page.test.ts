// What a page of listPets must hold, and when (checks/page.ts): a short page
// holds every matching pet this run created before it was asked for, each
// given its whole settle window from its own 201 (a list served from an index
// refreshed after the write conforms); a page read while creates are in flight
// must still hold the pets created a window before it. Shown with a gateway in
// front of the reference server that plays a lagging index, and one that loses
// older pets from lists while writes are in flight.
import t from 'tap';
import { idOf } from '../../../conformance/knowledge.js';
import { type JsonObject, stringifyJson } from '../../../spec/json/index.js';
import { runCheck } from '../../helpers/check-run.js';
import { jsonOf, startFront } from '../../helpers/front.js';
import { startTestServer } from '../../helpers/server.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

t.test('a list that shows each pet 80% of the settle window after its 201 passes, with two pets created 400 ms apart', async (t) => {
  const settleMs = 1000;
  const { url, key } = await startTestServer(t);
  const visibleAt = new Map<string, number>();
  const front = await startFront(t, url, async (req, forward) => {
    if (req.operationId === 'createPet') await sleep(400);
    const answer = await forward();
    if (req.operationId === 'createPet' && answer.status === 201) {
      const id = idOf(jsonOf(answer));
      if (id) visibleAt.set(id, Date.now() + 0.8 * settleMs);
    }
    if (req.operationId !== 'listPets' || answer.status !== 200) return answer;
    const items = jsonOf(answer) as JsonObject[];
    const shown = items.filter((item) => (visibleAt.get(idOf(item) ?? '') ?? 0) <= Date.now());
    return { ...answer, body: Buffer.from(stringifyJson(shown)) };
  });
  const { status, message } = await runCheck(front, key, 'state.model', { runs: 1, settleMs });
  t.equal(status, 'passed', message);
});

t.test('a list that loses the oldest pet while creates are in flight fails the burst check, though it shows it once they are over', async (t) => {
  const { url, key } = await startTestServer(t);
  let creating = 0;
  const front = await startFront(t, url, async (req, forward) => {
    if (req.operationId === 'createPet') {
      creating++;
      try {
        await sleep(50);
        return await forward();
      } finally {
        creating--;
      }
    }
    const answer = await forward();
    if (req.operationId !== 'listPets' || answer.status !== 200 || creating === 0) return answer;
    return { ...answer, body: Buffer.from(stringifyJson((jsonOf(answer) as JsonObject[]).slice(1))) };
  });
  const { status, message } = await runCheck(front, key, 'concurrency.createPet.burst', { runs: 100, settleMs: 0 });
  t.equal(status, 'failed');
  t.match(message, /fewer than the limit of \d+, so it must hold every matching pet; pet \d+, created by this run before the request, is missing/);
});
