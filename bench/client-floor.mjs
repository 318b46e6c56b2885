#!/usr/bin/env node
/**
 * The floor under the suite's rate: N requests through the suite's own client
 * (undici, 8 connections, 8 in flight) from a fresh process, with nothing
 * generated, checked or judged. It is as cold as a `petstore conform` run,
 * so no run of that many requests can be faster than this.
 *
 *   node bench/client-floor.mjs <base URL> <api key> <requests>   (prints seconds)
 */
import { createClient } from '../dist/conformance/client.js';
import { runPool } from '../dist/conformance/pool.js';

const [baseUrl, apiKey, count] = [process.argv[2], process.argv[3], Number(process.argv[4])];
const lanes = 8;
const client = createClient({ baseUrl, apiKey, timeoutMs: 10_000, concurrency: lanes, rate: 0, maxWrites: count, maxResponseBytes: 8 * 2 ** 20 });
const headers = { authorization: `Bearer ${apiKey}`, accept: 'application/json' };
// The three operations in turn, as the suite's checks mostly send them.
const requests = [
  { method: 'GET', path: '/pets?limit=20', headers, operationId: 'listPets' },
  { method: 'GET', path: '/pets/1', headers, operationId: 'getPet' },
  { method: 'POST', path: '/pets', headers: { ...headers, 'content-type': 'application/json' }, body: '{"name":"floor"}', operationId: 'createPet' },
];
const started = performance.now();
await runPool(
  Array.from({ length: count }, (_, i) => requests[i % requests.length]),
  lanes,
  (request) => client.send('floor', request),
);
console.log(((performance.now() - started) / 1000).toFixed(3));
await client.close();
