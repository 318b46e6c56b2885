/**
 * `petstore conform`: run the conformance suite against a base URL. Exit 0
 * when the target conforms, 1 when a requirement fails, 2 for a usage error
 * or an unreachable target (one line, no stack trace).
 */
import { writeFileSync } from 'node:fs';
import { Command, Option } from '@commander-js/extra-typings';
import {
  defaultRunOptions,
  describeCounts,
  FAMILIES,
  proxyFor,
  proxyProblem,
  redact,
  renderHtml,
  renderHuman,
  renderJson,
  renderJunit,
  renderTap,
  runConformance,
  shellArgument,
  TargetUnreachableError,
  verdictOf,
  type ConformanceResult,
  type Family,
  type ProgressEvent,
  type Secrets,
} from '../conformance/index.js';
import { readCompareAllow, startOracle } from './oracle.js';
import { UsageError, type CliIo } from './io.js';
import { collect, parseInteger, parseSeconds } from './options.js';
import { readTlsFiles, resolveHeaders } from './reach.js';

type Renderer = (result: ConformanceResult, secrets: Secrets, options?: { coverage?: boolean }) => string;

const REPORTERS = ['human', 'tap', 'junit', 'json', 'html'] as const;
type ReporterName = (typeof REPORTERS)[number];

/** One report of the run: its format, and its file (undefined: stdout). */
interface ReportTarget {
  readonly reporter: ReporterName;
  readonly file?: string;
}

const RENDERERS: Record<ReporterName, Renderer> = { human: renderHuman, tap: renderTap, junit: renderJunit, json: renderJson, html: renderHtml };

function parseList(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

export function conformCommand(io: CliIo) {
  return declareConform().action((options) => conform(options, io));
}

/** The options of `petstore conform`, declared once. */
function declareConform() {
  return new Command('conform')
    .description('Check any implementation of the interface against the spec (property-based, stateful)')
    .requiredOption('-u, --base-url <url>', 'base URL of the target, ending in its version prefix, e.g. https://staging.example.com/v1')
    .option('-k, --api-key <key>', 'an API key the target accepts; better: PETSTORE_API_KEY in the environment (argv is visible in ps)')
    .option('--seed <n>', 'seed of the generated cases; the same seed replays the same run', parseInteger(0, 2 ** 31 - 1))
    .option('--runs <n>', 'generated cases per property', parseInteger(1, 100_000), defaultRunOptions.runs)
    .option('--checks <list>', `families or check ids to run, comma-separated (${FAMILIES.join(', ')})`, parseList)
    .option('--skip-checks <list>', 'families to leave out, comma-separated', parseList)
    .option('--reporter <name[:file]>', `report format (${REPORTERS.join(', ')}), to stdout or to a file; repeat it for several reports of one run`, collect)
    .option(
      '-o, --output <file>',
      'write a report to a file, paired in order with the --reporter options that name no file (stdout keeps the summary)',
      collect,
    )
    .option('--coverage', 'end the human report with the coverage map (always shown when a run fails)', false)
    .option('--strict', "also require this project's documented decisions where the seed leaves behaviour open", false)
    .option('--read-only', 'only checks that create nothing', false)
    .option('--max-writes <n>', 'most POST requests the run may send', parseInteger(0, 10_000_000), defaultRunOptions.maxWrites)
    .option('--rate <n>', 'most requests per second (0: no limit)', parseInteger(0, 1_000_000), defaultRunOptions.rate)
    .option('--concurrency <n>', 'most requests in flight at once', parseInteger(1, 256), defaultRunOptions.concurrency)
    .option('--timeout <ms>', 'per-request timeout in milliseconds', parseInteger(1, 3_600_000), defaultRunOptions.timeoutMs)
    .option(
      '--time-budget <s>',
      'overall time budget in seconds; checks not started by then are skipped',
      parseInteger(1, 86_400),
      defaultRunOptions.timeBudgetMs / 1000,
    )
    .addOption(
      // Held in milliseconds, given and shown in seconds.
      new Option(
        '--settle <s>',
        'how long, in seconds, a created pet may take to show in lists and getPet (a search index, a replica); 0 demands read-your-writes',
      )
        .argParser(parseSeconds(0, 600))
        .default(defaultRunOptions.settleMs, String(defaultRunOptions.settleMs / 1000)),
    )
    .option(
      '-H, --header <field>',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: ${VAR} is the option's own syntax, read by resolveHeaders.
      "a field sent on every request, for a gateway or access proxy in front ('Name: value'; the value '${VAR}' reads the environment, '@FILE' a file); repeatable, redacted in every report",
      collect,
    )
    .option('--ca <file>', 'PEM file of a CA to trust besides the system ones (an internal or self-signed CA)')
    .option('--cert <file>', 'PEM file of a client certificate to present (mTLS); with --key')
    .option('--key <file>', 'PEM file of the private key of --cert')
    .option('--insecure', 'do not verify the TLS certificate of the target (said in every report)', false)
    .option('--name-prefix <text>', 'prefix of the name of every pet the run creates', defaultRunOptions.namePrefix)
    .option('--no-oracle', 'do not send every request to the reference server (started in this process) as well, to compare the answers')
    .option('--compare <url>', 'compare with this live implementation instead of the reference server: every request is sent to both (it writes there too)')
    .option('--compare-api-key <key>', 'the key --compare takes; better: PETSTORE_COMPARE_API_KEY (default: the --api-key)')
    .option('--compare-allow <file>', 'JSON array of differences a release intends: {"difference", "operationId"?, "status"?, "reason"}')
    .option('-q, --quiet', 'no progress output', false);
}

type ConformOptions = ReturnType<ReturnType<typeof declareConform>['opts']>;

/** One run against the target the options name, its reports written, its exit code set. */
async function conform(options: ConformOptions, io: CliIo): Promise<void> {
  const apiKey = options.apiKey ?? io.env['PETSTORE_API_KEY'];
  if (!apiKey) throw new UsageError('an API key is required: --api-key KEY or PETSTORE_API_KEY');
  let baseUrl: URL;
  try {
    baseUrl = new URL(options.baseUrl);
  } catch {
    throw new UsageError(`--base-url ${options.baseUrl} is not a URL`);
  }
  if (baseUrl.protocol !== 'http:' && baseUrl.protocol !== 'https:') throw new UsageError('--base-url must be http: or https:');
  const { families, checkIds } = selection(options.checks, options.skipChecks);
  const reports = reportTargets(options.reporter ?? [], options.output ?? []);
  // A proxy the run cannot use is a usage error (exit 2), found before any request.
  const proxy = proxyFor(baseUrl, io.env);
  const proxyRefused = proxy && proxyProblem(proxy);
  if (proxyRefused) throw new UsageError(`${proxyRefused} (from the environment)`);
  const headers = resolveHeaders(options.header ?? [], io.env);
  const tls = readTlsFiles(options);
  // The key of --compare is a secret too: a report quotes what the oracle answered.
  const compareKey = options.compareApiKey ?? io.env['PETSTORE_COMPARE_API_KEY'];
  const secrets = { apiKey, others: [...headers.secrets, ...(compareKey ? [{ text: compareKey, variable: 'PETSTORE_COMPARE_API_KEY' }] : [])] };
  const compareAllow = readCompareAllow(options.compareAllow);
  const oracle = await startOracle(options, apiKey, io.env);
  const progress = !options.quiet && io.stdout.isTTY === true ? createProgress(io) : undefined;
  let result: ConformanceResult;
  try {
    result = await runConformance({
      baseUrl: baseUrl.href.replace(/\/+$/, ''),
      apiKey,
      ...(options.seed !== undefined ? { seed: options.seed } : {}),
      runs: options.runs,
      families,
      checkIds,
      strict: options.strict,
      readOnly: options.readOnly,
      maxWrites: options.maxWrites,
      rate: options.rate,
      concurrency: options.concurrency,
      timeoutMs: options.timeout,
      timeBudgetMs: options.timeBudget * 1000,
      namePrefix: options.namePrefix,
      settleMs: options.settle,
      ...(Object.keys(headers.fields).length ? { headers: headers.fields } : {}),
      ...(tls ? { tls } : {}),
      env: io.env,
      rerunOptions: rerunOptions(headers.rerun, options),
      ...(progress ? { onProgress: progress.update } : {}),
      ...(oracle ? { oracle: oracle.target } : {}),
      ...(compareAllow.length ? { compareAllow } : {}),
    });
  } catch (error) {
    progress?.done();
    // The diagnosis quotes what answered: a gateway's page may echo the key or a --header value.
    if (error instanceof TargetUnreachableError) throw new UsageError(redact(error.message, secrets));
    throw error;
  } finally {
    await oracle?.close();
  }
  progress?.done();
  for (const { reporter, file } of reports) {
    const report = RENDERERS[reporter](result, secrets, { coverage: options.coverage });
    if (file) writeFileSync(file, report);
    else io.stdout.write(report);
  }
  const files = reports.filter((r) => r.file !== undefined);
  if (files.length === reports.length) {
    io.stdout.write(
      `${result.ok ? 'PASS' : 'FAIL'}: ${result.failures.length} failures, ${result.advisories.length} advisories, seed ${result.seed}; report in ${files.map((r) => `${r.file} (${r.reporter})`).join(', ')}\n` +
        `${verdictOf(result)}: ${describeCounts(result.counts)}\n`,
    );
  }
  if (result.ok && result.exercised === 0) {
    throw new UsageError(`nothing was tested: ${describeCounts(result.counts)} (${nothingTestedReason(result)})`);
  }
  process.exitCode = result.ok ? 0 : 1;
}

/**
 * The options that reach the target, for a rerun line: each --header as
 * resolveHeaders spells it without its secret, the TLS files by path.
 */
function rerunOptions(headers: readonly string[], options: { ca?: string; cert?: string; key?: string; insecure?: boolean }): string[] {
  const words = headers.flatMap((header) => ['--header', shellArgument(header)]);
  if (options.ca) words.push('--ca', shellArgument(options.ca));
  if (options.cert) words.push('--cert', shellArgument(options.cert));
  if (options.key) words.push('--key', shellArgument(options.key));
  if (options.insecure) words.push('--insecure');
  return words;
}

/**
 * `--reporter name` or `--reporter name:file`, repeated; each `--output`
 * gives a file, in order, to the reporters that name none. At most one report
 * goes to stdout; with none given, the human report does.
 */
export function reportTargets(reporters: readonly string[], outputs: readonly string[]): ReportTarget[] {
  const files = [...outputs];
  const targets = (reporters.length ? reporters : ['human']).map((spec): ReportTarget => {
    const colon = spec.indexOf(':');
    const name = colon === -1 ? spec : spec.slice(0, colon);
    if (!(REPORTERS as readonly string[]).includes(name)) throw new UsageError(`--reporter ${spec}: the reporters are ${REPORTERS.join(', ')}`);
    const file = colon === -1 ? files.shift() : spec.slice(colon + 1);
    if (file === '') throw new UsageError(`--reporter ${spec}: no file after the colon`);
    return { reporter: name as ReporterName, ...(file !== undefined ? { file } : {}) };
  });
  if (files.length > 0) throw new UsageError(`--output ${files[0]}: no --reporter left to write it (give one --reporter per --output)`);
  if (targets.filter((t) => t.file === undefined).length > 1)
    throw new UsageError('only one report can go to stdout: give the others a file (--reporter name:file or --output)');
  return targets;
}

/** Why a run that failed nothing exercised nothing either. */
function nothingTestedReason(result: ConformanceResult): string {
  const reasons = [...new Set(result.checks.map((c) => c.note).filter((n): n is string => n !== undefined))];
  return reasons.length ? reasons.slice(0, 3).join('; ') : 'no check was selected';
}

/** `--checks`/`--skip-checks` entries are family names or check-id prefixes. */
function selection(only: string[] | undefined, skip: string[] | undefined): { families: Family[]; checkIds: string[] } {
  const isFamily = (s: string): s is Family => (FAMILIES as readonly string[]).includes(s);
  const onlyFamilies = (only ?? []).filter(isFamily);
  const checkIds = (only ?? []).filter((s) => !isFamily(s));
  for (const id of checkIds) {
    if (!FAMILIES.some((f) => id.startsWith(`${f}.`))) throw new UsageError(`unknown family or check "${id}"; families: ${FAMILIES.join(', ')}`);
  }
  const skipped = new Set(skip ?? []);
  for (const s of skipped) if (!isFamily(s)) throw new UsageError(`--skip-checks takes families: ${FAMILIES.join(', ')}`);
  let families: Family[] = onlyFamilies.length
    ? onlyFamilies
    : checkIds.length
      ? [...new Set(checkIds.map((id) => id.split('.')[0] as Family))]
      : [...FAMILIES];
  families = families.filter((f) => !skipped.has(f));
  return { families, checkIds };
}

function createProgress(io: CliIo) {
  let done = 0;
  let running = new Set<string>();
  let requests = 0;
  const draw = () => io.stderr.write(`\r\x1b[K${done} checks done, ${requests} requests; running: ${[...running].slice(0, 3).join(', ')}`);
  return {
    update(event: ProgressEvent) {
      if (event.type === 'check-start') running.add(event.check);
      else {
        running.delete(event.outcome.id);
        done++;
        requests = event.requests;
      }
      draw();
    },
    done() {
      running = new Set();
      io.stderr.write('\r\x1b[K');
    },
  };
}
