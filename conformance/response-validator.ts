/**
 * Judging a response against the spec, with two validators that share no
 * code with the reference server's request handling:
 * - @stoplight/prism-http's `validateOutput` (status, media type, body schema);
 * - the exact validator compiled from the same spec (`spec/schema`), which sees
 *   the lossless body, so int64 values are checked digit for digit.
 * Prism parses with doubles and bounds `format: int64` to ±(2^53−1), which
 * would fail a correct target whose ids go beyond 2^53; so it is shown the
 * body with every integer replaced by a small stand-in of the same sign, after
 * the exact validator has checked the real digits.
 *
 * Prism costs about a third of a millisecond per response and about a second
 * to load, so it runs in a worker thread: the checks start once it has
 * loaded, never wait for a verdict, and its verdicts are collected when the
 * run ends. Its verdict depends only on what it is shown (the status, the
 * body, Content-Type and the headers the spec declares), and about two answers
 * in three of a run show it the same thing (every 401 of an operation, a
 * created pet's shape once its digits are stand-ins), so each distinct
 * question is asked once.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { openapi } from '../spec/openapi.js';
import type { OperationDescriptor } from '../spec/operations.js';
import type { JsonValue } from '../spec/json/index.js';
import { compileSchema, type Validator } from '../spec/schema/validate.js';
import type { WireResponse } from './client.js';

export interface ResponseValidator {
  /** Problems with `response` as an answer of `operation`; empty when it conforms. */
  judge(operation: OperationDescriptor, response: WireResponse): Promise<string[]>;
}

const require = createRequire(import.meta.url);

/**
 * The worker's code. It is evaluated as CommonJS, so it is given absolute
 * module paths: it then works the same from the sources and from dist/.
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { getHttpOperationsFromSpec } = require(workerData.operationsPath);
const { validateOutput } = require(workerData.validatorPath);

// Every integer becomes a stand-in of its sign: the exact validator has
// already judged the digits, which Prism would read as doubles. (Bodies the
// main thread could parse come with their stand-ins already in place.)
function standIns(value) {
  if (typeof value === 'number') return Number.isInteger(value) ? Math.sign(value) + 0 : value;
  if (Array.isArray(value)) return value.map(standIns);
  if (value !== null && typeof value === 'object') {
    const out = {};
    for (const key of Object.keys(value)) out[key] = standIns(value[key]);
    return out;
  }
  return value;
}

const warn = console.warn;
console.warn = () => {};
const ready = getHttpOperationsFromSpec(workerData.spec).then((operations) => {
  console.warn = warn;
  const byKey = new Map();
  for (const op of operations) byKey.set(op.method.toUpperCase() + ' ' + op.path, op);
  parentPort.postMessage('ready');
  return byKey;
});

// Questions come in batches (one message per event-loop turn of the main thread).
parentPort.on('message', async (batch) => {
  const byKey = await ready;
  parentPort.postMessage(batch.map((question) => ({ id: question.id, problems: judge(byKey, question) })));
});

function judge(byKey, { key, status, headers, text }) {
  let problems = [];
  try {
    const operation = byKey.get(key);
    if (!operation) throw new Error('Prism did not load ' + key);
    let body = text;
    try {
      body = text === '' ? undefined : standIns(JSON.parse(text));
    } catch {}
    const result = validateOutput({ resource: operation, element: { statusCode: status, headers, body } });
    if (result._tag === 'Left') {
      // Severity 0 is an error; 1 is Prism's "status not declared", judged by the caller.
      problems = result.left.filter((d) => d.severity === 0).map((d) => 'Prism: ' + d.message);
    }
  } catch (error) {
    problems = ['Prism could not judge this response: ' + error.message];
  }
  return problems;
}
`;

/** What a Prism verdict is asked about. */
interface PrismQuestion {
  key: string;
  status: number;
  headers: Readonly<Record<string, string>>;
  text: string;
}

/**
 * One Prism worker per process, shared by every run in it (a test that runs
 * the suite against many targets loads Prism once). It keeps the process
 * alive only while verdicts are pending.
 */
interface PrismWorker {
  ask(question: PrismQuestion): Promise<string[]>;
  /** Settles once Prism has loaded the spec (or failed to). */
  readonly ready: Promise<void>;
}

let sharedPrism: PrismWorker | undefined;

function prismWorker(): PrismWorker {
  if (sharedPrism) return sharedPrism;
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: {
      // Only the spec loader and the validator: the package's main entry also
      // loads Prism's mocker (json-schema-faker, faker), four times slower.
      operationsPath: require.resolve('@stoplight/prism-http/dist/utils/operations'),
      validatorPath: require.resolve('@stoplight/prism-http/dist/validator'),
      spec: JSON.parse(JSON.stringify(openapi)),
    },
  });
  let nextId = 0;
  const pending = new Map<number, (problems: string[]) => void>();
  let failure: Error | undefined;
  let loaded!: () => void;
  const ready = new Promise<void>((resolve) => (loaded = resolve));
  worker.on('message', (answers: 'ready' | { id: number; problems: string[] }[]) => {
    if (answers === 'ready') {
      loaded();
      if (pending.size === 0) worker.unref();
      return;
    }
    for (const { id, problems } of answers) {
      pending.get(id)?.(problems);
      pending.delete(id);
    }
    if (pending.size === 0) worker.unref();
  });
  // Questions asked in one turn of the event loop travel as one message.
  let batch: (PrismQuestion & { id: number })[] = [];
  const flush = () => {
    worker.postMessage(batch);
    batch = [];
  };
  const fail = (error: Error) => {
    failure = error;
    loaded();
    sharedPrism = undefined;
    for (const resolve of pending.values()) resolve([`Prism could not judge this response: ${error.message}`]);
    pending.clear();
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the validator thread stopped (exit ${code})`)));
  // The worker keeps the process alive while Prism loads (someone awaits
  // `ready`), then only while verdicts are pending.
  const ask = (question: PrismQuestion): Promise<string[]> => {
    if (failure) return Promise.resolve([`Prism could not judge this response: ${failure.message}`]);
    return new Promise((resolve) => {
      const id = nextId++;
      if (pending.size === 0) worker.ref();
      pending.set(id, resolve);
      if (batch.length === 0) setImmediate(flush);
      batch.push({ id, ...question });
    });
  };
  sharedPrism = { ask, ready };
  return sharedPrism;
}

/** The exact validator alone (int64 digit for digit), synchronous: problems with `response` as an answer of `operation`. */
export type ExactValidator = (operation: OperationDescriptor, response: WireResponse) => string[];

export function createExactValidator(operations: readonly OperationDescriptor[]): ExactValidator {
  const exact = new Map<string, Map<number, Validator>>();
  for (const op of operations) {
    const byStatus = new Map<number, Validator>();
    for (const response of op.responses) if (response.schema) byStatus.set(response.status, compileSchema(response.schema));
    exact.set(op.operationId, byStatus);
  }
  return (operation, response) => {
    const validator = exact.get(operation.operationId)?.get(response.status);
    if (!validator) return [];
    if (response.json === undefined) return [`the body is not JSON${response.parseError ? ` (${response.parseError})` : ''}`];
    const issue = validator(response.json, 'body');
    return issue ? [issue.message] : [];
  };
}

export async function createResponseValidator(operations: readonly OperationDescriptor[]): Promise<ResponseValidator> {
  const exact = createExactValidator(operations);
  // Checks start once Prism has loaded: loading it takes about a second of
  // CPU, and on a machine of two cores, checks running meanwhile would
  // contend with it and the target for the processor.
  const prism = prismWorker();
  await prism.ready;
  // What a question says about its operation, made once: the key the worker
  // finds it by, and the headers Prism's verdict reads (validateOutput: the
  // media type, the body, the declared headers). Showing Prism only those lets
  // answers that differ in Date or Content-Length share a question.
  const about = (op: OperationDescriptor) => ({
    key: `${op.method} ${op.path}`,
    headers: [...new Set(['content-type', ...op.responses.flatMap((r) => r.headers)])],
  });
  const asking = new Map(operations.map((op) => [op.operationId, about(op)]));
  const verdicts = new Map<string, Promise<string[]>>();
  const prismProblems = (operation: OperationDescriptor, response: WireResponse) => {
    const { key, headers: judged } = asking.get(operation.operationId) ?? about(operation);
    const headers: Record<string, string> = {};
    for (const name of judged) {
      const value = response.headers[name];
      if (value !== undefined) headers[name] = value;
    }
    const question = {
      key,
      status: response.status,
      headers,
      text: response.json === undefined ? response.text : JSON.stringify(withStandIns(response.json)),
    };
    const id = JSON.stringify([question.key, question.status, question.headers, question.text]);
    let verdict = verdicts.get(id);
    if (!verdict) {
      // Bounded for long runs: forgetting only means asking again.
      if (verdicts.size >= MAX_REMEMBERED_VERDICTS) verdicts.clear();
      verdicts.set(id, (verdict = prism.ask(question)));
    }
    return verdict;
  };

  return {
    async judge(operation, response) {
      const problems = exact(operation, response);
      problems.push(...(await prismProblems(operation, response)));
      return [...new Set(problems)];
    },
  };
}

const MAX_REMEMBERED_VERDICTS = 10_000;

/** The value with every integer replaced by its sign, as the worker's `standIns` does with doubles. */
function withStandIns(value: JsonValue): unknown {
  if (typeof value === 'bigint') return value > 0n ? 1 : value < 0n ? -1 : 0;
  if (Array.isArray(value)) return value.map(withStandIns);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = Object.create(null);
    for (const key of Object.keys(value)) out[key] = withStandIns(value[key] as JsonValue);
    return out;
  }
  return value;
}
