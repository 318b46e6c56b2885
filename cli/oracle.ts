/**
 * The second implementation `petstore conform` compares the target with: by
 * default this package's reference server, started in this process on
 * loopback for the run (empty, random ids so that no id the run asks for by
 * chance names one of its pets, no control API, page or findings); with
 * `--compare URL` a live one (staging against production, the new build
 * against the last release); none with `--no-oracle`.
 */
import { readFileSync } from 'node:fs';
import type { CompareAllowance, OracleTarget } from '../conformance/index.js';
import { startServer } from '../src/index.js';
import { UsageError } from './io.js';

export interface OracleOptions {
  readonly oracle: boolean;
  readonly compare?: string;
  readonly compareApiKey?: string;
  readonly compareAllow?: string;
}

export interface StartedOracle {
  readonly target: OracleTarget;
  close(): Promise<void>;
}

export async function startOracle(
  options: OracleOptions,
  apiKey: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<StartedOracle | undefined> {
  if (options.compare !== undefined) {
    let url: URL;
    try {
      url = new URL(options.compare);
    } catch {
      throw new UsageError(`--compare ${options.compare} is not a URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError('--compare must be http: or https:');
    const key = options.compareApiKey ?? env['PETSTORE_COMPARE_API_KEY'] ?? apiKey;
    return { target: { baseUrl: url.href.replace(/\/+$/, ''), apiKey: key, label: url.href.replace(/\/+$/, '') }, close: async () => {} };
  }
  if (!options.oracle) return undefined;
  const server = await startServer({ apiKeys: [apiKey], ids: 'random', control: false, docs: false, findings: false });
  return { target: { baseUrl: server.url, apiKey, label: 'the reference server', inProcess: true }, close: () => server.close() };
}

/**
 * `--compare-allow FILE`: the differences a release intends, as a JSON array of
 * `{ "difference", "operationId"?, "status"?, "reason" }` (status: the target's).
 */
export function readCompareAllow(file: string | undefined): CompareAllowance[] {
  if (file === undefined) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`cannot read --compare-allow ${file}: ${(error as Error).message}`);
  }
  if (!Array.isArray(parsed)) throw new UsageError(`--compare-allow ${file} must hold a JSON array of allowed differences`);
  return parsed.map((entry, index) => {
    const at = `--compare-allow ${file}, entry ${index + 1}`;
    if (typeof entry !== 'object' || entry === null) throw new UsageError(`${at} is not an object`);
    const { difference, operationId, status, reason } = entry as Record<string, unknown>;
    if (typeof difference !== 'string' || !DIFFERENCES.includes(difference)) throw new UsageError(`${at}: difference must be one of ${DIFFERENCES.join(', ')}`);
    if (typeof reason !== 'string' || reason.trim() === '') throw new UsageError(`${at}: give the reason the release intends it`);
    if (operationId !== undefined && typeof operationId !== 'string') throw new UsageError(`${at}: operationId must be a string`);
    if (status !== undefined && (typeof status !== 'number' || !Number.isInteger(status))) throw new UsageError(`${at}: status must be an integer`);
    return { difference, reason, ...(operationId !== undefined ? { operationId } : {}), ...(status !== undefined ? { status } : {}) } as CompareAllowance;
  });
}

const DIFFERENCES = ['served-without-key', 'valid-key-refused', 'accepted-refused', 'refused-accepted'];
