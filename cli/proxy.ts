/**
 * `petstore proxy`: both halves on live traffic, between a real client and a
 * real implementation (proxy/). What it shares with `petstore serve` (the
 * log, the findings' report, the ways to stop) is in running.ts; how the
 * upstream is reached, with `petstore conform` (reach.ts).
 */
import { Command, Option } from '@commander-js/extra-typings';
import { createProxy, DEFAULT_MAX_JUDGED_BYTES, DEFAULT_TIMEOUT_MS, type PetstoreProxy } from '../proxy/index.js';
import { DEFAULT_HOST, defaultLimits, DEVELOPMENT_API_KEY } from '../src/index.js';
import { resolveApiKeys } from './api-keys.js';
import { UsageError, type CliIo } from './io.js';
import { collect, parseInteger, parsePort } from './options.js';
import { readTlsFiles, resolveHeaders } from './reach.js';
import { openOutput, reportFindings, stopRequests } from './running.js';

export const DEFAULT_PROXY_PORT = 4011;

export function proxyCommand(io: CliIo) {
  return declareProxy().action((options) => proxy(options, io));
}

/** The options of `petstore proxy`, declared once: the README's table is kept in step by a test. */
function declareProxy() {
  return new Command('proxy')
    .description('Stand between a client and an implementation: check every request and every answer against the interface, and pass both on')
    .requiredOption('--upstream <url>', "the implementation's base URL, its path where the interface lives (https://staging.example.com/v1)")
    .option('-p, --port <port>', 'port to listen on; 0 picks a free one', parsePort, DEFAULT_PROXY_PORT)
    .option('--host <host>', 'address to listen on', DEFAULT_HOST)
    .option('--base-path <path>', "path prefix of the interface at the proxy (default: the upstream URL's path)")
    .option('--refuse-invalid', 'answer what the stand-in would refuse (400, 401…) as it would, without passing it on', false)
    .option('--errors', 'answer 502 with an Error body naming the rule, instead of an upstream answer that breaks one', false)
    .option('--record <file>', 'write every pet the upstream served to this file at shutdown (a state file: serve --seed it, ids kept with --keep-ids)')
    .option(
      '-k, --api-key <key>',
      'a key for the control API and the page (repeatable; also PETSTORE_API_KEYS); given, clients must send one of them too. Without, the development key guards the control API and any Bearer key is passed on',
      collect,
    )
    .option('--api-keys-file <file>', 'a file of keys, one per line (keeps keys out of `ps`)')
    .option(
      '--header <field>',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: ${VAR} is the option's own syntax, read by resolveHeaders.
      "a field added to every request passed on, for a gateway in front of the upstream ('Name: value'; '${VAR}' reads the environment, '@FILE' a file); repeatable",
      collect,
    )
    .option('--ca <file>', 'PEM file of a CA to trust besides the system ones, for an https upstream with an internal CA')
    .option('--cert <file>', 'PEM file of a client certificate to present to the upstream (mTLS); with --key')
    .option('--key <file>', 'PEM file of the private key of --cert')
    .option('--insecure', "do not verify the upstream's TLS certificate", false)
    .option('--timeout <ms>', 'how long the upstream may take to answer before the proxy answers 504', parseInteger(1, 3_600_000), DEFAULT_TIMEOUT_MS)
    .option(
      '--max-judged-bytes <n>',
      'answers larger than this are passed on as they come, unjudged',
      parseInteger(1024, 1_073_741_824),
      DEFAULT_MAX_JUDGED_BYTES,
    )
    .option('--no-control', 'do not serve the control API (/__control)')
    .option('--no-docs', 'do not serve the page to read and try the API (/ and /docs)')
    .option('--journal-size <n>', 'requests kept in the journal (GET /__control/journal)', parseInteger(0, 1_000_000), defaultLimits.journalSize)
    .addOption(
      new Option('--log <format>', 'request log on stdout: pretty (one line per request) or json (pino field names)')
        .choices(['pretty', 'json'] as const)
        .default('pretty' as const),
    )
    .option('-q, --quiet', 'no request log', false)
    .option('--findings <file>', "write the findings, the client's and the upstream's, to this JSON file at shutdown")
    .addOption(
      new Option('--fail-on-findings <severity>', 'exit 1 at shutdown if findings of this severity were seen: error, or warning (warnings or errors)').choices([
        'error',
        'warning',
      ] as const),
    );
}

type ProxyCliOptions = ReturnType<ReturnType<typeof declareProxy>['opts']>;

async function proxy(options: ProxyCliOptions, io: CliIo): Promise<void> {
  const apiKeys = resolveApiKeys({ flags: options.apiKey ?? [], env: io.env['PETSTORE_API_KEYS'], file: options.apiKeysFile });
  const headers = resolveHeaders(options.header ?? [], io.env).fields;
  const tls = readTlsFiles(options);
  const output = openOutput(io, options);
  const stop = stopRequests(output.notice);
  let server: PetstoreProxy;
  try {
    server = createProxy({
      upstream: options.upstream,
      apiKeys,
      ...(options.basePath === undefined ? {} : { basePath: options.basePath }),
      refuseInvalid: options.refuseInvalid,
      errors: options.errors,
      record: options.record !== undefined,
      headers,
      ...(tls ? { tls } : {}),
      env: io.env,
      timeoutMs: options.timeout,
      maxJudgedBytes: options.maxJudgedBytes,
      limits: { journalSize: options.journalSize },
      control: options.control,
      docs: options.docs,
      onShutdown: () => stop.ask('POST /__control/shutdown'),
      ...(output.log ? { log: output.log } : {}),
    });
  } catch (error) {
    output.close();
    throw new UsageError(`--upstream ${options.upstream}: ${(error as Error).message}`);
  }
  try {
    let url: string;
    try {
      url = await server.listen(options.port, options.host);
    } catch (error) {
      await server.close();
      throw new UsageError(`cannot listen on ${options.host}:${options.port}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    stop.watch();
    output.notice(startupLines(options, url, server, apiKeys));
    await stop.asked;
    await server.close();
    stop.unwatch();
    if (options.record && server.recording) {
      try {
        await server.recording.write(options.record);
        output.notice(`petstore: ${server.recording.size()} pets the upstream served, written to ${options.record}\n`);
      } catch (error) {
        io.stderr.write(`petstore: cannot write ${options.record}: ${(error as Error).message}\n`);
        process.exitCode = 1;
      }
    }
    await reportFindings(options, io, server.findings.list(), output.notice);
  } finally {
    output.close();
  }
}

function startupLines(options: ProxyCliOptions, url: string, server: PetstoreProxy, apiKeys: readonly string[]): string {
  const origin = new URL(url).origin;
  const key = apiKeys.length === 0 ? DEVELOPMENT_API_KEY : '<API_KEY>';
  return [
    `petstore: proxying the Pet Store Service Interface v1.0.0 at ${url} to ${server.upstream.href}`,
    `  requests: checked as the stand-in checks them, then ${options.refuseInvalid ? 'refused as it refuses them, or passed on' : 'passed on, findings or not'}`,
    `  answers: judged by the suite's rules for one exchange, then ${options.errors ? 'answered 502 when one breaks a rule' : 'passed back as they came'}`,
    ...(options.record ? [`  recording: every pet the upstream serves, written to ${options.record} at shutdown`] : []),
    ...(options.docs ? [`  docs: ${origin}/docs`] : []),
    ...(options.control
      ? [`  findings: ${origin}/__control/findings (Authorization: Bearer ${key})`, '  stop: Ctrl-C, or POST /__control/shutdown (same key)']
      : ['  stop: Ctrl-C']),
    '',
  ].join('\n');
}
