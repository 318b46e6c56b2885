#!/usr/bin/env node
/**
 * Part 2 of `npm run mutate` (issue 27): the suite's checks, mutated, against
 * the broken fixtures. Run with `node --import tsx` (scripts/mutate.mjs does).
 *
 * Each target below is a check module (or a catalogue) and the family it
 * serves. Stryker's instrumenter places every mutant of the targets in one
 * copy of the project (mutant switching), so one process runs them all:
 *
 * 1. Baseline, no mutant active: the family's checks alone, `--runs 25
 *    --seed 1`, against the unmodified base implementation (must pass) and
 *    against every broken fixture that lists the family in `violates` (the
 *    ones the family catches by itself are its witnesses).
 * 2. Each mutant the baseline reached is activated in turn and the family run
 *    again: against the base first (a mutant that now fails a correct server
 *    is killed by it), then against each witness until one is no longer
 *    caught (killed by that fixture). A mutant every witness still fails is a
 *    blind spot of the corpus: a broken fixture is missing, unless the mutant
 *    is listed in mutation/check-equivalents.json with the reason it changes
 *    nothing a server can show.
 * 3. A mutant the witnesses did not kill is run against the correct fixtures
 *    (the unmutated family must pass each): one that now fails kills it (a
 *    check made stricter than the seed, which the base alone does not show:
 *    `lenient-media-types` answers 201 where the base answers 415).
 *
 * Module-level code (the catalogues: JSON_SPELLINGS, the request-field
 * tables…) runs once, when the suite is imported, so switching a mutant on
 * later changes nothing there. The mutants reached during the import are run
 * each in a child process instead (this script with `--child`), started with
 * `__STRYKER_ACTIVE_MUTANT__` set so the instrumented modules load with the
 * mutant on; the child makes the same judgement (the base first, then the
 * witnesses) and prints it as JSON. The other mutants are switched in this
 * process.
 *
 * A helper several families share (`judgedBy`: checks/page.ts, rules.ts,
 * family-requests.ts) is judged by each of those families, and by each run (a fixture
 * and a family) only where that run, unmutated, reached the mutant.
 *
 * A target may name `tests`: test files that judge, after the witnesses, the
 * mutants those do not kill (what a check reports beyond its pass or fail,
 * which no fixture can show). Each runs in a child process on the sandbox,
 * with the mutant on; a failing test kills the mutant. A mutant no fixture
 * run reaches is judged by those tests alone. With `testsFirst` (the engine,
 * which every family's witnesses would judge) the tests come before the base.
 *
 * Mutants in what only describes a result (titles, requirements, labels,
 * messages, coverage notes, advisories, which never fail a run) are not
 * generated; they are counted as ignored.
 *
 * A mutant may make a check run away (a Map grown past what V8 allows, a
 * loop that allocates without end) and take the process with it. The work
 * is therefore done by a worker process (this script with `--worker`) that
 * notes its progress in a file: the baseline of each family, the mutant it
 * starts, each verdict. When the worker dies, or spends longer than
 * MUTANT_TIMEOUT_MS on one mutant (or RUN_ALLOWANCE_MS per run it needs, when that is more), the mutant it was judging is killed
 * ("a crash" or "a timeout": the suite's run would end in an error, never
 * in a silent pass), and a new worker goes on from the next one with the
 * baselines and verdicts so far.
 *
 * Exit code 1 when a mutant survives that is not listed as equivalent.
 * `--family auth` runs one family's targets (`--family a,b` several); `--list` prints the mutants;
 * `--count` only counts them (nothing is run); `--file TEXT` keeps the targets whose path contains TEXT (`--file a,b`: either);
 * `--lines 94,120-124` keeps the mutants on those lines (to see what a new fixture kills);
 * `--progress FILE` keeps the progress in FILE, so that a run stopped (or
 * timed out) goes on from there when started again with the same FILE. A mutant recorded in
 * check-equivalents.json is run against the base and the witnesses only (a
 * new fixture may kill it), not against the correct fixtures again, which is
 * most of a survivor's time; `--recheck` runs those too. `--tests-only` runs only the targets' own tests
 * against each mutant (what a new test kills, in seconds; the fixtures' part of the verdict is not made). `--report --progress FILE` prints what a
 * run (finished or still going) has judged so far and its unrecorded survivors, running nothing.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { constants as osConstants, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { deserialize, serialize } from 'node:v8';
import { Instrumenter } from '@stryker-mutator/instrumenter';
import { describeMutant, entryKey } from './mutation-entries.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The engine's two files (check.ts, knowledge.ts): one target setting, below. */
const ENGINE = {
  family: 'engine',
  judgedBy: 'every family',
  tests: ['test/conformance/check.test.ts', 'test/conformance/knowledge.test.ts'],
  // Every family's witnesses are some 450 runs a mutant; its tests take seconds and kill most of its mutants
  // (what a run comes to, which a fixture's pass or fail mostly cannot show), so they judge first here.
  testsFirst: true,
  optIn: true,
};
/**
 * What is mutated, and the family whose fixtures judge it. `only` limits a
 * file to the named top-level functions (a catalogue inside a larger module).
 */
const TARGETS = [
  { file: 'conformance/checks/auth.ts', family: 'auth', tests: ['test/conformance/runner/read-only.test.ts'] },
  // The credential catalogue: the near misses of the key every auth check sends.
  { file: 'conformance/arbitraries/requests.ts', family: 'auth', only: ['refusedAuthorizationExamples'], tests: ['test/conformance/arbitraries/requests.test.ts'] },
  // With its catalogues (JSON_SPELLINGS, OTHER_MEDIA_TYPES, JSON_ACCEPTS: module-level, judged in a child process each).
  { file: 'conformance/checks/media-types.ts', family: 'media-types', tests: ['test/conformance/checks/media-types.test.ts'] },
  // The routes checks, with their spelling catalogue (module-level helpers: judged in a child process each).
  { file: 'conformance/checks/routes.ts', family: 'routes', tests: ['test/conformance/checks/routes.test.ts', 'test/conformance/checks/responses/off-spec.test.ts'] },
  { file: 'conformance/arbitraries/spellings.ts', family: 'routes' },
  // With how the unknown ids of not-found are spelled.
  { file: 'conformance/checks/not-found.ts', family: 'not-found', tests: ['test/conformance/checks/not-found.test.ts'] },
  { file: 'conformance/arbitraries/requests.ts', family: 'not-found', only: ['pathValue'] },
  { file: 'conformance/checks/deprecation.ts', family: 'deprecation', tests: ['test/conformance/checks/deprecation.test.ts'] },
  // With the invalid bodies the validation checks send.
  { file: 'conformance/checks/validation.ts', family: 'validation' },
  {
    file: 'conformance/arbitraries/requests.ts',
    family: 'validation',
    only: ['invalidBodyClasses', 'applyMutation', 'invalidBody', 'invalidBodyExamples', 'requiredOnly', 'unboundedMarkedProperty', 'withLongMarked', 'without'],
    tests: ['test/conformance/arbitraries/requests.test.ts'],
  },
  // With the invalid parameter texts the limits checks send.
  { file: 'conformance/checks/limits.ts', family: 'limits', tests: ['test/conformance/runner/property-runs.test.ts'] },
  { file: 'conformance/arbitraries/requests.ts', family: 'limits', only: ['invalidParameterTexts'] },
  { file: 'conformance/checks/state.ts', family: 'state', tests: ['test/conformance/checks/state.test.ts'] },
  // Always on unless --read-only, so every state run ends with it; its failures are the state family's.
  { file: 'conformance/checks/accounting.ts', family: 'state', tests: ['test/conformance/checks/accounting.test.ts'] },
  // With its catalogue of JSON texts (module-level: judged in a child process each).
  { file: 'conformance/checks/json.ts', family: 'json', tests: ['test/conformance/checks/json.test.ts'] },
  { file: 'conformance/catalogues/json-texts.ts', family: 'json', tests: ['test/conformance/catalogues/json-texts.test.ts'] },
  // What the hand-written messages put on the wire, which node:http fixtures cannot all show: its test reads the sockets.
  { file: 'conformance/checks/http.ts', family: 'http', optIn: true, tests: ['test/conformance/checks/http.test.ts', 'test/conformance/checks/responses/off-spec.test.ts'] },
  // Its catalogues (the messages it writes by hand, the preconditions and ranges it sends): judged as http.ts is.
  { file: 'conformance/catalogues/message-framings.ts', family: 'http', optIn: true, tests: ['test/conformance/checks/http.test.ts', 'test/conformance/checks/responses/off-spec.test.ts'] },
  { file: 'conformance/catalogues/raw-reads.ts', family: 'http', optIn: true, tests: ['test/conformance/checks/http.test.ts', 'test/conformance/checks/responses/off-spec.test.ts'] },
  { file: 'conformance/catalogues/preconditions-and-ranges.ts', family: 'http', optIn: true, tests: ['test/conformance/checks/http.test.ts', 'test/conformance/checks/responses/off-spec.test.ts'] },
  // The rules judge answers other families' requests get too (a 304 to an invariants request): their test gives those.
  { file: 'conformance/checks/http-rules.ts', family: 'http', optIn: true, tests: ['test/conformance/checks/http-rules.test.ts'] },
  // What the answers name and the dates and tags they state, judged over the http family's own traffic.
  { file: 'conformance/checks/references.ts', family: 'http', optIn: true, tests: ['test/conformance/checks/references.test.ts'] },
  { file: 'conformance/checks/validators.ts', family: 'http', optIn: true, tests: ['test/conformance/checks/validators.test.ts'] },
  // any-request draws nothing at the runs the corpus is judged at (its examples fill them): its test judges what it draws.
  { file: 'conformance/checks/invariants.ts', family: 'invariants', optIn: true, tests: ['test/conformance/checks/invariants/any-request.test.ts', 'test/conformance/checks/invariants/rules.test.ts', 'test/conformance/checks/invariants/owns-fields.test.ts', 'test/conformance/checks/responses/off-spec.test.ts', 'test/conformance/runner/read-only.test.ts'] },
  // What it takes for pet data in an answer no fixture gives (a public list, a null, a pet 64 levels down): its test.
  { file: 'conformance/checks/no-credential.ts', family: 'invariants', optIn: true, tests: ['test/conformance/checks/no-credential.test.ts'] },
  // Each Accept-Encoding field is one real clients send: its test reads it by RFC 9110 §12.5.3.
  { file: 'conformance/catalogues/codings.ts', family: 'invariants', optIn: true, tests: ['test/conformance/catalogues/codings.test.ts'] },
  // A spelling of a page size is for a validator and a reader that disagree on it, a pair that fails on that spelling
  // alone: its test states what each spelling is to the readers it is for.
  { file: 'conformance/catalogues/page-sizes.ts', family: 'invariants', optIn: true, tests: ['test/conformance/catalogues/page-sizes.test.ts'] },
  // An entry is for a server that acts on that one field or value (one fixture an entry would be tuned to the catalogue):
  // its test states what each entry is, by the standard or framework that gives it its meaning.
  { file: 'conformance/catalogues/request-fields.ts', family: 'invariants', optIn: true, tests: ['test/conformance/catalogues/request-fields.test.ts'] },
  // Which methods are safe decides both when no-credential reads its witnesses back and which bodies it sends: its test.
  { file: 'conformance/catalogues/methods.ts', family: 'invariants', optIn: true, tests: ['test/conformance/checks/no-credential.test.ts'] },
  { file: 'conformance/catalogues/targets.ts', family: 'invariants', optIn: true },
  { file: 'conformance/checks/leaks.ts', family: 'leaks', tests: ['test/conformance/checks/leaks.test.ts'] },
  // The judge of every answer: it only observes, so each fixture's traffic is recorded once and replayed into it.
  { file: 'conformance/checks/responses.ts', family: 'responses', tests: ['test/conformance/checks/responses.test.ts'] },
  // The rules over every answer: always on, whatever the families, and reported under responses, so judged as
  // responses.ts is, from the recorded traffic (see judgedFailing).
  { file: 'conformance/checks/universal.ts', family: 'responses', tests: ['test/conformance/checks/universal.test.ts'] },
  // The oracle exists only in a run given one: its runs get the reference server, as the CLI starts it (see caught).
  { file: 'conformance/differential/outcome.ts', family: 'oracle', tests: ['test/conformance/differential/outcome.test.ts'] },
  { file: 'conformance/differential/compare.ts', family: 'oracle', tests: ['test/conformance/differential/compare.test.ts'] },
  { file: 'conformance/differential/mirror.ts', family: 'oracle', tests: ['test/conformance/differential/mirror.test.ts'] },
  // Its rows relax the rules over every answer (responses) and the oracle's comparison (same-outcome): a row's
  // mutant is judged by the runs of either that reached it. Its test proves each row needed by a correct server;
  // the rules' and the comparison's tests give the answers each row must not excuse.
  {
    file: 'conformance/tolerances.ts',
    family: 'tolerances',
    judgedBy: ['responses', 'oracle'],
    optIn: true,
    tests: ['test/conformance/tolerances.test.ts', 'test/conformance/checks/universal.test.ts', 'test/conformance/differential/compare.test.ts'],
  },
  { file: 'conformance/checks/concurrency.ts', family: 'concurrency', tests: ['test/conformance/runner/property-runs.test.ts', 'test/conformance/checks/concurrency.test.ts'] },
  // The helpers several families share: each mutant is judged by every family whose runs reach it (judgedBy),
  // each run only where the unmutated run of that fixture and family reached the mutant (see baselineOfHelpers).
  { file: 'conformance/checks/page.ts', family: 'page', judgedBy: ['limits', 'state', 'concurrency'], optIn: true, tests: ['test/conformance/checks/page.test.ts'] },
  // What a rule's check makes of its findings (grouping, counts, advisories, --strict) shows in the report,
  // which no fixture's pass or fail reads: its own test judges the mutants the fixtures do not kill.
  {
    file: 'conformance/checks/rules.ts',
    family: 'rules',
    judgedBy: ['http', 'invariants', 'json', 'leaks'],
    tests: ['test/conformance/checks/rules.test.ts'],
    optIn: true,
  },
  // Every family's request helpers: judged by every family with checks of its own (all but responses, which only observes).
  // Which operation plays which role is found from what the spec says of it: with this spec a looser test
  // finds the same operations, so a test with decoys (other operations, other orders) judges those mutants.
  {
    file: 'conformance/checks/family-requests.ts',
    family: 'shared',
    judgedBy: 'every family',
    tests: ['test/conformance/checks/family-requests.test.ts'],
    optIn: true,
  },
  // The engine every check runs on: what a check's run comes to (check.ts: a Violation a failure, nothing
  // exercised never a pass…) and what the run knows (knowledge.ts: the pets it created, the target's clock).
  // Every family's runs judge it, then its own tests what those runs cannot tell.
  { file: 'conformance/check.ts', ...ENGINE },
  { file: 'conformance/knowledge.ts', ...ENGINE },
];

const RUN = { runs: 25, seed: 1, timeBudgetMs: 120_000 };
/** Witnesses run at once against a mutant (each on its own server). */
const WITNESSES_AT_ONCE = 3;
/** Correct fixtures run at once against a mutant the witnesses did not kill (each on its own server). */
const CORRECT_AT_ONCE = 4;
/** How long a target's test file may take with a mutant on before it counts as failed (the mutant killed). */
const TEST_TIMEOUT_MS = 120_000;
/** How long a child process may take over one module-level mutant before it counts as killed by a timeout. */
const CHILD_TIMEOUT_MS = 300_000;
/** How long the worker may spend on one mutant before it is stopped and the mutant counts as killed by a timeout. */
const MUTANT_TIMEOUT_MS = 900_000;
/**
 * A helper's mutant may be judged by a thousand runs (every family against every fixture that reaches
 * it): its time limit grows with them, so that a slow survivor is not counted killed by a timeout.
 */
const RUN_ALLOWANCE_MS = 5_000;
/** Workers started in one run at most: each crash starts one more. */
const MAX_WORKERS = 100;

/** Object properties that only describe a check or a result. */
const DESCRIPTIVE = new Set(['title', 'requirement', 'seedSection', 'seed', 'observed', 'referenceBehaviour', 'reference', 'label', 'description', 'note', 'decision', 'allows', 'seenIn', 'source']);
/** Calls whose arguments never decide a pass or a failure. */
const SILENT_CALLS = new Set(['cover', 'unspecified', 'advise']);
/** Constructors whose first argument is a message only. */
const MESSAGES = new Set(['Violation', 'NothingToExercise', 'Error']);

/**
 * `spans` is filled with the lines of each top-level declaration that a target
 * names in `only` (file → [{ name, first, last }]), so a mutant is given to the
 * family whose catalogue it is in when one file serves several families.
 */
function ignorerFor(targets, spans) {
  return {
    shouldIgnore(path) {
      const node = path.node;
      const file = path.hub?.file?.opts?.filename;
      const ofFile = targets.filter((t) => join(root, t.file) === file);
      if (ofFile.length > 0 && ofFile.every((t) => t.only) && path.parentPath?.isProgram?.()) {
        const declared = node.type === 'ExportNamedDeclaration' ? node.declaration : node;
        const name = declared?.id?.name ?? declared?.declarations?.[0]?.id?.name;
        if (!ofFile.some((t) => t.only.includes(name))) return 'outside the catalogue';
        spans.set(file, [...(spans.get(file) ?? []), { name, first: node.loc.start.line, last: node.loc.end.line }]);
      }
      if (node.type === 'ObjectProperty' && DESCRIPTIVE.has(node.key?.name ?? node.key?.value)) return 'describes a check or a result';
      if (node.type === 'CallExpression' && SILENT_CALLS.has(node.callee?.property?.name)) return 'coverage or an advisory: never a failure';
      const parent = path.parentPath?.node;
      if (parent?.type === 'NewExpression' && MESSAGES.has(parent.callee?.name) && parent.arguments[0] === node) return 'a message';
      if (parent?.type === 'CallExpression' && parent.callee?.name === 'expectStatus' && parent.arguments[2] === node) return 'a message';
      return undefined;
    },
  };
}

const silentLogger = { debug() {}, trace() {}, info() {}, warn: console.warn, error: console.error, fatal: console.error };
for (const level of ['Trace', 'Debug', 'Info', 'Warn', 'Error', 'Fatal']) silentLogger[`is${level}Enabled`] = () => level === 'Warn' || level === 'Error';

/**
 * Every target in one instrumentation, so that mutant ids are unique across
 * files. A file may serve several families: the whole file one family, or
 * each named catalogue (`only`) its own.
 */
async function instrument(sandbox, targets) {
  const names = [...new Set(targets.map((t) => t.file))];
  for (const name of names) {
    const ofFile = targets.filter((t) => t.file === name);
    if (ofFile.length > 1 && ofFile.some((t) => !t.only)) throw new Error(`${name}: a file mutated whole serves one family only`);
  }
  const files = names.map((name) => ({ name: join(root, name), content: readFileSync(join(root, name), 'utf8'), mutate: true }));
  const spans = new Map();
  const result = await new Instrumenter(silentLogger).instrument(files, { plugins: null, excludedMutations: [], ignorers: [ignorerFor(targets, spans)] });
  for (const file of result.files) writeFileSync(join(sandbox, relative(root, file.name)), file.content);
  // Outside every catalogue named: not part of what is mutated, not counted either.
  const inTargets = result.mutants.filter((m) => m.statusReason !== 'outside the catalogue');
  return inTargets.map((m) => {
    const ofFile = targets.filter((t) => join(root, t.file) === m.fileName);
    const line = m.location.start.line + 1;
    const declaration = spans.get(m.fileName)?.find((s) => s.first <= line && line <= s.last);
    const target = ofFile.length === 1 ? ofFile[0] : ofFile.find((t) => t.only.includes(declaration?.name));
    if (!target) throw new Error(`${m.fileName}:${line}: a mutant outside every target's catalogue`);
    return { ...m, file: target.file, family: target.family, source: files.find((f) => f.name === m.fileName).content };
  });
}

/**
 * A record no mutant matches names a line that changed or went: it no longer
 * says anything, and a reader would trust it. Only files this run mutates in
 * every target that names them are judged (a catalogue target mutates part of a file).
 */
function warnUnmatched(equivalents, mutants, targets) {
  const whole = new Set(targets.map((t) => t.file).filter((file) => TARGETS.filter((t) => t.file === file).every((t) => targets.includes(t))));
  const generated = new Set(mutants.map((m) => entryKey(m.described)));
  const stale = equivalents.filter((e) => whole.has(e.file) && !generated.has(entryKey(e)));
  for (const e of stale) console.log(`warning: the record "${e.line}" (${e.mutator} ${e.replacement}, ${e.file}) matches no mutant: the line changed; record it again or drop it`);
}

/** `94,120-124` as a test of a line number; undefined without the option. */
function parseLines(text) {
  if (text === undefined) return undefined;
  const ranges = text.split(',').map((part) => {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!m) throw new Error(`--lines ${text}: expected line numbers and ranges such as 94,120-124`);
    return [Number(m[1]), Number(m[2] ?? m[1])];
  });
  return (line) => ranges.some(([from, to]) => line >= from && line <= to);
}

/** The value that follows `name` in `args`, if it is there. */
function optionValue(args, name) {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args[at + 1];
}

/** The child processes judging a module-level mutant now, killed with this one. */
const children = new Set();

const describe = (m) => describeMutant(m.file, m.source, m.location, m.mutatorName, m.replacement);

/**
 * The parent: starts workers until one finishes, each going on from the
 * progress file; a mutant a worker died on (or stalled on) is killed by that.
 */
async function main() {
  const args = process.argv.slice(2);
  // --progress FILE keeps the progress where the next run with the same FILE goes on from it (a family that
  // takes hours, done in parts); a finished run removes it. Without it, the progress lives for this run only.
  const kept = optionValue(args, '--progress');
  if (args.includes('--report')) {
    if (!kept || !existsSync(kept)) throw new Error('--report reads the progress file of a run: give it with --progress FILE');
    return report(kept, args);
  }
  // Its results are no verdicts: they must not mix with a run's.
  if (kept && args.includes('--tests-only')) throw new Error('--tests-only keeps no progress: leave out --progress');
  const progressDir = kept ? undefined : mkdtempSync(join(tmpdir(), 'petstore-mutate-progress-'));
  const progress = kept ?? join(progressDir, 'progress.jsonl');
  if (!kept || !existsSync(progress)) writeFileSync(progress, '');
  else console.log(`going on from ${progress} (${readProgress(progress).verdicts.size} mutants judged)`);
  const forget = () => (kept ? undefined : rmSync(progressDir, { recursive: true, force: true }));
  let worker;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.once(signal, () => {
      if (worker) killGroup(worker, signal);
      forget();
      process.exit(128 + osConstants.signals[signal]);
    });
  }
  try {
    for (let started = 0; started < MAX_WORKERS; started++) {
      const { code, signal, stalled } = await runWorker(args, progress, (w) => (worker = w));
      const { current, where, limitMs, sandboxes, finished } = readProgress(progress);
      // A worker that died left its sandbox (and maybe a child judging a module-level mutant: its group was killed).
      for (const dir of sandboxes) rmSync(dir, { recursive: true, force: true });
      // Only the worker's own word says it finished: an exit code alone could be a crash's.
      if (finished !== undefined) {
        if (kept) rmSync(progress, { force: true });
        return finished;
      }
      if (current === undefined) throw new Error(`the worker ended (${signal ?? `exit ${code}`}) outside any mutant`);
      const killedBy = stalled ? 'a timeout' : `a crash (${signal ?? `exit ${code}`})`;
      console.log(`${where} -> ${killedBy} (the worker ${stalled ? `spent over ${Math.round((limitMs ?? MUTANT_TIMEOUT_MS) / 60_000)} minutes on it` : 'died on it'}; a new one goes on)`);
      appendFileSync(progress, `${JSON.stringify({ verdict: current, killedBy })}\n`);
    }
    throw new Error(`${MAX_WORKERS} workers started: too many crashes to go on`);
  } finally {
    forget();
  }
}

/** One worker, its output passed through; resolves with how it ended, and whether it stalled on a mutant. */
function runWorker(args, progress, started) {
  return new Promise((resolve) => {
    // Its own process group, so that stopping it stops the children it started too.
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--worker', progress, ...args], { stdio: 'inherit', detached: true });
    started(child);
    let stalled = false;
    let last = '';
    let since = Date.now();
    const watch = setInterval(() => {
      const { current, limitMs } = readProgress(progress);
      const now = String(current);
      if (now !== last) {
        last = now;
        since = Date.now();
      } else if (current !== undefined && Date.now() - since > (limitMs ?? MUTANT_TIMEOUT_MS)) {
        stalled = true;
        killGroup(child, 'SIGKILL');
      }
    }, 5_000);
    child.on('close', (code, signal) => {
      clearInterval(watch);
      // What the worker started and left running (a child judging a module-level mutant) goes with it.
      killGroup(child, 'SIGKILL');
      resolve({ code, signal, stalled });
    });
  });
}

function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Gone already.
  }
}

/**
 * The progress file: when the run began, each family's baseline, each
 * verdict, the mutant being judged (started, no verdict yet) and the
 * workers' sandboxes.
 */
function readProgress(file) {
  const baselines = new Map();
  const verdicts = new Map();
  const sandboxes = [];
  const started = new Set();
  const ended = new Map();
  let current;
  let began;
  let finished;
  let where;
  let limitMs;
  let sources;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    const entry = JSON.parse(line);
    if (entry.finished !== undefined) finished = entry.finished;
    else if (entry.began) {
      began = entry.began;
      sources = entry.sources;
    } else if (entry.sandbox) sandboxes.push(entry.sandbox);
    else if (entry.baseline) baselines.set(entry.baseline, entry);
    else if (entry.ended) ended.set(entry.ended, entry.seconds);
    else if (entry.start !== undefined) {
      started.add(entry.start);
      current = entry.start;
      where = entry.where;
      limitMs = entry.limitMs;
    } else if (entry.verdict !== undefined) {
      verdicts.set(entry.verdict, entry.killedBy);
      if (current === entry.verdict) current = undefined;
    }
  }
  return { baselines, verdicts, started, ended, current, where, limitMs, sandboxes, began, finished, sources };
}

function sourcesDigest(targets) {
  const sources = createHash('sha256');
  for (const file of [...new Set(targets.map((t) => t.file))]) sources.update(readFileSync(join(root, file)));
  return sources.digest('hex');
}

/** The targets and lines `--family`, `--file` and `--lines` choose. */
function chooseTargets(args) {
  const familyArg = optionValue(args, '--family');
  const chosen = familyArg?.split(',');
  // --file TEXT: only the targets whose path contains TEXT (a part of a large family, run and triaged on its own);
  // --file a,b: those whose path contains either (the new files of several families, in one run).
  const part = optionValue(args, '--file');
  const parts = part?.split(',');
  // --lines 94,120-124: only the mutants on those lines of the chosen files (a fixture's kills checked without
  // the hours a whole family takes); the figures then describe those lines only.
  const lines = parseLines(optionValue(args, '--lines'));
  const targets = TARGETS.filter((t) => (chosen ? chosen.includes(t.family) : !t.optIn) && (parts === undefined || parts.some((p) => t.file.includes(p))));
  if ((chosen || part !== undefined) && targets.length === 0) throw new Error(`no target serves ${familyArg ?? 'the default families'}${part === undefined ? '' : ` in a file whose path contains ${part}`}`);
  return { targets, lines };
}

/**
 * `--report --progress FILE` (with the run's --family, --file and --lines): what a run, finished or
 * still going, has judged so far, without running anything: the counts and every survivor not
 * recorded, as a finished run prints them. A survivor can be triaged while the run goes on.
 */
async function report(progress, args) {
  const done = readProgress(progress);
  const { targets, lines } = chooseTargets(args);
  if (done.sources !== undefined && done.sources !== sourcesDigest(targets)) throw new Error('the mutated files changed since that run began: its mutant ids mean other mutants now');
  const sandbox = mkdtempSync(join(tmpdir(), 'petstore-mutate-report-'));
  try {
    for (const target of targets) mkdirSync(dirname(join(sandbox, target.file)), { recursive: true });
    const all = (await instrument(sandbox, targets)).map((m) => ({ ...m, described: describe(m) }));
    const known = new Map(JSON.parse(readFileSync(join(root, 'mutation/check-equivalents.json'), 'utf8')).map((e) => [entryKey(e), e]));
    for (const family of [...new Set(targets.map((t) => t.family))]) {
      const counts = { judged: 0, waiting: 0, killed: 0, equivalent: 0, open: 0, survived: 0, notReached: 0 };
      const survivors = [];
      for (const m of all.filter((m) => m.family === family && m.status !== 'Ignored' && (!lines || lines(m.location.start.line + 1)))) {
        if (!done.verdicts.has(m.id)) {
          counts.waiting++;
          continue;
        }
        counts.judged++;
        const killedBy = done.verdicts.get(m.id);
        const status = known.get(entryKey(m.described))?.status;
        if (killedBy) counts.killed++;
        else if (status === 'equivalent' || status === 'open') counts[status]++;
        else if (!done.started.has(m.id)) counts.notReached++;
        else {
          counts.survived++;
          survivors.push({ ...m.described, found: 'Survived', status: '', reason: '' });
        }
      }
      console.log(`${family}: ${JSON.stringify(counts)}`);
      if (survivors.length > 0) console.log(JSON.stringify(survivors, null, 2));
    }
    return 0;
  } finally {
    rmSync(sandbox, { recursive: true, force: true });
  }
}

/** The work itself, in a worker process: goes on from what the progress file holds. */
async function work([progress, ...args]) {
  const note = (entry) => appendFileSync(progress, `${JSON.stringify(entry)}\n`);
  // A mutant may leave a request behind that fails after its run ended (its client closed): that would
  // take the worker down on a later mutant, which would then be blamed for it. Its own run already ended.
  process.on('unhandledRejection', () => {});
  const done = readProgress(progress);
  const { targets, lines } = chooseTargets(args);
  // Mutant ids are positions in the instrumented sources: a later worker may go on only over the same sources.
  const digest = sourcesDigest(targets);
  if (done.sources !== undefined && done.sources !== digest) throw new Error('the mutated files changed during the run: start it again');
  const started = done.began ?? Date.now();
  if (!done.began) note({ began: started, sources: digest });
  const sandbox = mkdtempSync(join(tmpdir(), 'petstore-mutate-checks-'));
  note({ sandbox });
  // Interrupted (Ctrl-C, a CI timeout): the children and the sandbox go too, not only this process.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.once(signal, () => {
      for (const child of children) child.kill('SIGKILL');
      rmSync(sandbox, { recursive: true, force: true });
      process.exit(128 + osConstants.signals[signal]);
    });
  }
  try {
    // test/ whole: a target's tests import their helpers (test/helpers) like any other test; docs/, as a test may
    // hold a page to what it documents (tolerances.test.ts: the tolerance table of docs/conformance.md).
    for (const dir of ['conformance', 'spec', 'src', 'fixtures', 'test', 'docs']) cpSync(join(root, dir), join(sandbox, dir), { recursive: true });
    for (const file of ['package.json', 'tsconfig.json']) cpSync(join(root, file), join(sandbox, file));
    for (const link of ['node_modules', 'dist']) symlinkSync(join(root, link), join(sandbox, link));
    const all = (await instrument(sandbox, targets)).map((m) => ({ ...m, switchId: m.id, described: describe(m) }));
    const equivalents = JSON.parse(readFileSync(join(root, 'mutation/check-equivalents.json'), 'utf8'));
    if (!lines) warnUnmatched(equivalents, all, targets);
    if (args.includes('--count')) {
      for (const family of [...new Set(targets.map((t) => t.family))]) {
        const ofFamily = all.filter((m) => m.family === family);
        const ignored = ofFamily.filter((m) => m.status === 'Ignored').length;
        console.log(`${family}: ${ofFamily.length - ignored} mutants, ${ignored} descriptive ones not generated`);
      }
      return 0;
    }
    // The instrumented modules keep the coverage object they first see: it is emptied in place, never replaced.
    const ns = (globalThis.__stryker__ ??= {});
    ns.mutantCoverage = { static: {}, perTest: {} };
    const { caught, implementations, families } = await load(sandbox);
    // What ran while the suite was imported: module-level code, judged in a child process each.
    const atImport = new Set(Object.keys(ns.mutantCoverage.static));
    for (const id of atImport) delete ns.mutantCoverage.static[id];

    const known = new Map(equivalents.map((e) => [entryKey(e), e]));
    // --tests-only: the targets' tests alone, no fixture run (what a new test kills, in seconds; not a verdict).
    const onlyTests = args.includes('--tests-only');
    const summary = [];
    let failed = false;
    for (const family of [...new Set(targets.map((t) => t.family))]) {
      const files = targets.filter((t) => t.family === family).map((t) => t.file);
      const mutants = all.filter((m) => m.family === family);
      const fixtures = implementations.filter((i) => i.kind === 'broken' && i.violates.includes(family)).map((i) => i.name);
      const correct = implementations.filter((i) => i.kind === 'correct').map((i) => i.name);
      // Baseline, with coverage: which mutants the family's runs reach at all (once: a later worker reads it back).
      const named = targets.find((t) => t.family === family).judgedBy;
      const tests = [...new Set(targets.filter((t) => t.family === family).flatMap((t) => t.tests ?? []))];
      const testsFirst = targets.some((t) => t.family === family && t.testsFirst);
      const judgedBy = named === 'every family' ? families.filter((f) => f !== 'responses') : named;
      if (onlyTests && tests.length === 0) throw new Error(`--tests-only: the ${family} targets name no tests`);
      let baseline = onlyTests ? { started: Date.now(), bases: [], witnesses: [], correct: [], pairs: 0, reached: [] } : done.baselines.get(family);
      // Before any baseline of fixtures (minutes): a test that fails unmutated would kill every mutant.
      if (!baseline || onlyTests) {
        const failing = await runTests(sandbox, undefined, tests);
        if (failing) throw new Error(`the unmutated ${family} targets fail their own ${failing}`);
      }
      if (!baseline) {
        ns.activeMutant = undefined;
        const familyStarted = Date.now();
        baseline = judgedBy
          ? { baseline: family, started: familyStarted, ...(await baselineOfHelpers(caught, implementations, judgedBy, ns.mutantCoverage.static)) }
          : { baseline: family, started: familyStarted, ...(await baselineOfFamily(caught, family, fixtures, correct, ns.mutantCoverage.static)) };
        note(baseline);
        const broken = judgedBy ? `${baseline.pairs} pairs of a broken fixture and a family that it lists (${judgedBy.join(', ')})` : `${fixtures.length} broken fixtures list it`;
        console.log(
          `${family}: ${files.join(', ')}; ${broken}, ${baseline.witnesses.length} caught by that family alone; the ${correct.length} correct fixtures pass it; baseline ${Math.round((Date.now() - familyStarted) / 1000)} s`,
        );
      }
      const { started: familyStarted } = baseline;
      // Runs, each a fixture and the family run against it: one family's, or (helpers) every family's that reaches the mutant.
      const witnesses = judgedBy ? baseline.witnesses : baseline.witnesses.map((name) => ({ name, family }));
      const correctRuns = judgedBy ? baseline.correct : correct.map((name) => ({ name, family }));
      const bases = judgedBy ? baseline.bases : [{ family }];
      // Module-level code runs at import, before any run: every run may depend on it.
      const reaching = (runs, id) => (judgedBy && !atImport.has(id) ? runs.filter((r) => r.reached.includes(id)) : runs);
      const label = runLabel(family);
      const correctLabels = new Set(correctRuns.map(label));
      const reached = new Set(baseline.reached);
      const counts = { mutants: 0, atImport: 0, ignored: 0, killed: 0, killedByBase: 0, killedByTest: 0, killedByCorrect: 0, equivalent: 0, open: 0, survived: 0, noCoverage: 0 };
      const survivors = [];
      for (const m of mutants) {
        if (lines && !lines(m.location.start.line + 1)) continue;
        if (m.status === 'Ignored') {
          counts.ignored++;
          continue;
        }
        counts.mutants++;
        const { described } = m;
        const judged = done.verdicts.has(m.switchId);
        // A recorded mutant survived the correct fixtures when it was recorded: running them again (most of a
        // survivor's time) could only say the record is wrong, which a fresh run without the file would show.
        const recorded = known.has(entryKey(described)) && !args.includes('--recheck');
        const runs = {
          bases: reaching(bases, m.switchId).map((r) => r.family),
          witnesses: reaching(witnesses, m.switchId),
          correct: recorded ? [] : reaching(correctRuns, m.switchId),
          family,
          tests,
          testsFirst,
        };
        let killedBy = done.verdicts.get(m.switchId) ?? undefined;
        if (atImport.has(m.switchId)) counts.atImport++;
        // The line and its column in the trimmed line (`at`, as a record names it), so a verdict finds its record.
        const where = `${m.file}:${m.location.start.line + 1}:${described.at} ${m.mutatorName} ${described.replacement}`;
        const wasReached = atImport.has(m.switchId) || reached.has(m.switchId);
        // No fixture run reaches it (or --tests-only): only the target's own tests judge it.
        const byTestsAlone = onlyTests || (!wasReached && tests.length > 0);
        if (!judged && !onlyTests && (wasReached || byTestsAlone)) {
          const count = byTestsAlone ? 0 : runs.bases.length + runs.witnesses.length + runs.correct.length;
          note({ start: m.switchId, where, limitMs: Math.max(MUTANT_TIMEOUT_MS, count * RUN_ALLOWANCE_MS) });
        }
        if (judged) {
          // Judged by an earlier worker.
        } else if (byTestsAlone) {
          killedBy = await runTests(sandbox, m.switchId, tests);
        } else if (atImport.has(m.switchId)) {
          killedBy = await judgeInChild(sandbox, m.switchId, runs);
        } else if (reached.has(m.switchId)) {
          ns.activeMutant = m.switchId;
          ns.hitCount = 0;
          ns.hitLimit = 5_000_000;
          try {
            killedBy = await judge(caught, runs, sandbox, m.switchId);
          } finally {
            ns.activeMutant = undefined;
            ns.hitLimit = undefined;
          }
        }
        if (!judged) note({ verdict: m.switchId, killedBy: killedBy ?? null });
        // Neighbouring mutants tend to die to the same witness: trying the last killer first saves running the
        // witnesses before it. The order changes only which witness is named, not whether the mutant is killed.
        const killer = witnesses.findIndex((w) => label(w) === killedBy);
        if (killer !== -1) witnesses.unshift(...witnesses.splice(killer, 1));
        if (killedBy?.startsWith('base')) counts.killedByBase++;
        else if (killedBy?.startsWith('test ')) counts.killedByTest++;
        else if (correctLabels.has(killedBy)) counts.killedByCorrect++;
        else if (killedBy) counts.killed++;
        else if (known.get(entryKey(described))?.status === 'equivalent') counts.equivalent++;
        else if (known.get(entryKey(described))?.status === 'open') counts.open++;
        else {
          if (wasReached) counts.survived++;
          else counts.noCoverage++;
          survivors.push({ ...described, found: wasReached ? 'Survived' : 'NoCoverage', status: '', reason: '' });
        }
        if (args.includes('--list') && !judged) console.log(`${where} -> ${killedBy ?? (onlyTests ? 'survived its tests' : wasReached ? 'survived' : 'not reached')}`);
      }
      // A family a worker before this one finished keeps the time it took then, not the time since it began.
      const seconds = done.ended.get(family) ?? Math.round((Date.now() - familyStarted) / 1000);
      if (!done.ended.has(family)) note({ ended: family, seconds });
      summary.push({ family, files, fixtures: judgedBy ? baseline.pairs : fixtures.length, witnesses: witnesses.length, correct: correct.length, ...counts, seconds });
      console.log(
        `${family}: ${counts.mutants} mutants (${counts.ignored} descriptive ones not generated; ${counts.atImport} in module-level code, each in a child process): ${counts.killed} killed by a fixture, ${counts.killedByBase} by the base, ${tests.length > 0 ? `${counts.killedByTest} by its tests, ` : ''}${counts.killedByCorrect} by a correct fixture, ${counts.equivalent} equivalent, ${counts.open} open (fixture missing, recorded), ${counts.survived} surviving, ${counts.noCoverage} not reached; ${seconds} s`,
      );
      if (survivors.length > 0) {
        failed = true;
        console.log(`${family}: surviving mutants (a broken fixture is missing, or an equivalent to list):`);
        console.log(JSON.stringify(survivors, null, 2));
      }
    }
    console.log(`\nchecks: ${JSON.stringify(summary)}; ${Math.round((Date.now() - started) / 1000)} s in all`);
    return failed ? 1 : 0;
  } finally {
    rmSync(sandbox, { recursive: true, force: true });
  }
}

/** The instrumented suite and fixtures of the sandbox, and whether a family's checks fail an implementation. */
async function load(sandbox) {
  const { runConformance, FAMILIES } = await import(pathToFileURL(join(sandbox, 'conformance/index.ts')).href);
  const { implementations, startVariant } = await import(pathToFileURL(join(sandbox, 'fixtures/implementations/index.mjs')).href);
  const imported = (path) => import(pathToFileURL(join(sandbox, path)).href);
  /** The run an implementation is judged with: RUN, and --read-only for a variant judged so (the base is not). */
  const runFor = (name) => ({ ...RUN, readOnly: implementations.find((i) => i.name === name)?.readOnly === true });
  /**
   * `responses` has no checks of its own: it judges the answers every other family gets. Its mutants
   * change no request, so each implementation's traffic (every other family, one run) is recorded once,
   * the first time it is needed, and replayed into a new judge for each mutant.
   */
  const traffic = new Map();
  let judging;
  /** What the judge reads of an exchange: a run's request bodies (up to megabytes each) are left out. */
  const slim = ({ family, request, response }) => ({
    family,
    request: {
      method: request.method,
      path: request.path,
      headers: {},
      operationId: request.operationId,
      ...(request.offSpec ? { offSpec: true } : {}),
      // What the tolerance table reads of a request: a message written by hand, a path outside the base path.
      ...(request.raw !== undefined ? { raw: request.raw } : {}),
      ...(request.fromOrigin ? { fromOrigin: true } : {}),
    },
    response,
  });
  async function judgedFailing(name) {
    // Named by the fixture, in the sandbox: a child judging a module-level mutant replays what the worker recorded
    // unmutated rather than recording it again (a whole run of every family per fixture, for each such mutant).
    const file = join(sandbox, `traffic-${name}.bin`);
    if (!traffic.has(name) && existsSync(file)) traffic.set(name, file);
    if (!traffic.has(name)) {
      const exchanges = [];
      const server = await startVariant(name, { apiKey: 'test-key' });
      try {
        const families = FAMILIES.filter((f) => f !== 'responses');
        await runConformance({ baseUrl: server.url, apiKey: server.apiKey, families, observe: (e) => exchanges.push(slim(e)), ...runFor(name) });
      } finally {
        await server.close();
      }
      // On disk, not in memory: a run's answers are tens of megabytes, and there are a hundred fixtures.
      writeFileSync(file, serialize(exchanges));
      traffic.set(name, file);
    }
    judging ??= Promise.all([
      imported('spec/operations.ts'),
      imported('conformance/response-validator.ts'),
      imported('conformance/checks/responses.ts'),
      imported('conformance/checks/universal.ts'),
      imported('conformance/tolerances.ts'),
    ]).then(async ([spec, validator, { createResponseJudge }, { universalChecks }, { TOLERANCES }]) => ({
      operations: spec.operations,
      validator: await validator.createResponseValidator(spec.operations),
      createResponseJudge,
      universalChecks,
      TOLERANCES,
    }));
    const { operations, validator, createResponseJudge, universalChecks, TOLERANCES } = await judging;
    const judge = createResponseJudge(operations, validator);
    // The rules over every answer are on in every run, whatever its families, and may report under responses: their
    // checks hear the replay as a run's client would let them, and count as the run would (a failure of the family).
    const hearing = [];
    const ctx = { operations, options: { strict: false }, client: { observe: (listener) => hearing.push(listener) }, unspecified() {} };
    const universal = universalChecks(ctx, TOLERANCES, new Map());
    for (const exchange of deserialize(readFileSync(traffic.get(name)))) {
      judge.observe(exchange);
      for (const listener of hearing) listener(exchange);
    }
    const outcomes = [...(await judge.outcomes()), ...(await Promise.all(universal.map((check) => check.run(ctx))))];
    return outcomes.some((o) => o.status === 'failed' && [o.failure, ...(o.extraFailures ?? [])].some((f) => f?.family === 'responses'));
  }
  /** The reference server as the oracle, started as `petstore conform` starts it (cli/oracle.ts). */
  async function startOracle() {
    const { startServer } = await imported('src/index.ts');
    const server = await startServer({ apiKeys: ['test-key'], ids: 'random', control: false, docs: false, findings: false });
    return { target: { baseUrl: server.url, apiKey: 'test-key', label: 'the reference server', inProcess: true }, close: () => server.close() };
  }
  /** Whether the family's checks report a failure for this implementation ("base" or a fixture). */
  async function caught(name, family) {
    if (family === 'responses') return judgedFailing(name);
    const server = await startVariant(name, { apiKey: 'test-key' });
    // The oracle family has checks only in a run given an oracle; no other family's run gets one (as with --no-oracle).
    const oracle = family === 'oracle' ? await startOracle() : undefined;
    try {
      const result = await runConformance({ baseUrl: server.url, apiKey: server.apiKey, families: [family], ...(oracle ? { oracle: oracle.target } : {}), ...runFor(name) });
      return result.failures.some((f) => f.family === family);
    } finally {
      await server.close();
      await oracle?.close();
    }
  }
  return { caught, implementations, families: FAMILIES };
}

/**
 * The baseline of one family: the base must pass, the broken fixtures that list the family and are caught by
 * it are its witnesses, every correct fixture must pass; `reached` is what those runs reach of the mutants.
 */
async function baselineOfFamily(caught, family, fixtures, correct, coverage) {
  for (const id of Object.keys(coverage)) delete coverage[id];
  if (await caught('base', family)) throw new Error(`the unmutated ${family} checks fail the base implementation`);
  const witnesses = [];
  for (const name of fixtures) if (await caught(name, family)) witnesses.push(name);
  for (const name of correct) if (await caught(name, family)) throw new Error(`the unmutated ${family} checks fail the correct fixture ${name}`);
  return { witnesses, reached: Object.keys(coverage) };
}

/**
 * The baseline of a helper that several families share (`judgedBy`): each family against the base, against
 * each broken fixture that lists it and against each correct fixture, with what each run reaches. A mutant
 * is judged only by the runs that reached it: a run that never executes the mutated code runs alike with it.
 * A survivor of a helper every family uses then costs the runs that use that line, not all of them.
 */
async function baselineOfHelpers(caught, implementations, judgedBy, coverage) {
  const bases = [];
  const witnesses = [];
  const correct = [];
  let pairs = 0;
  const covered = async (name, family) => {
    for (const id of Object.keys(coverage)) delete coverage[id];
    const failed = await caught(name, family);
    return { failed, reached: Object.keys(coverage) };
  };
  for (const family of judgedBy) {
    const base = await covered('base', family);
    if (base.failed) throw new Error(`the unmutated ${family} checks fail the base implementation`);
    bases.push({ family, reached: base.reached });
    for (const { name } of implementations.filter((i) => i.kind === 'broken' && i.violates.includes(family))) {
      pairs++;
      const run = await covered(name, family);
      if (run.failed) witnesses.push({ name, family, reached: run.reached });
    }
    for (const { name } of implementations.filter((i) => i.kind === 'correct')) {
      const run = await covered(name, family);
      if (run.failed) throw new Error(`the unmutated ${family} checks fail the correct fixture ${name}`);
      correct.push({ name, family, reached: run.reached });
    }
  }
  const reached = [...new Set([...bases, ...witnesses, ...correct].flatMap((r) => r.reached))];
  return { bases, witnesses, correct, pairs, reached };
}

/** How a verdict names a run: the fixture, with the family when it is not the target's own (a helper's). */
const runLabel = (family) => (run) => (run.family === family ? run.name : `${run.name} (${run.family})`);

/**
 * With a mutant on: "base" when it fails the base, else the first witness it
 * no longer catches, else the first of the target's tests that fails (with
 * `testsFirst`, before the base), else
 * the first correct fixture it fails; undefined when none (it survives).
 * `runs` names the families to run against the base, the witnesses and
 * correct fixtures, each with the family to run, and the test files.
 */
async function judge(caught, { bases, witnesses, correct, family, tests = [], testsFirst = false }, sandbox, mutant) {
  const label = runLabel(family);
  const byBase = async () => {
    for (const f of bases) if (await caught('base', f)) return f === family ? 'base' : `base (${f})`;
  };
  // A witness kills the mutant when it is no longer caught.
  const byWitness = async () => {
    const run = await firstOf(witnesses, WITNESSES_AT_ONCE, async (r) => !(await caught(r.name, r.family)));
    return run && label(run);
  };
  const byTests = () => runTests(sandbox, mutant, tests);
  // Most mutants reaching this stage survive it, so every correct fixture is run.
  const byCorrect = async () => {
    const run = await firstOf(correct, CORRECT_AT_ONCE, (r) => caught(r.name, r.family));
    return run && label(run);
  };
  try {
    for (const stage of testsFirst ? [byTests, byBase, byWitness, byCorrect] : [byBase, byWitness, byTests, byCorrect]) {
      const verdict = await stage();
      if (verdict) return verdict;
    }
    return undefined;
  } catch (error) {
    return `an error (${String(error).slice(0, 80)})`;
  }
}

/**
 * The first of `runs` for which `holds` resolves true, `size` at a time (each run on its own server; a run
 * mostly waits on its fixture). The first in order is named, so the batching changes the time, not the verdict.
 */
async function firstOf(runs, size, holds) {
  for (let i = 0; i < runs.length; i += size) {
    const batch = runs.slice(i, i + size);
    const at = (await Promise.all(batch.map(holds))).indexOf(true);
    if (at !== -1) return batch[at];
  }
  return undefined;
}

/**
 * Runs each test file on the sandbox in a child process, with `mutant` on (none: the unmutated sources);
 * "test <file>" for the first that fails or outlasts TEST_TIMEOUT_MS, undefined when all pass.
 */
async function runTests(sandbox, mutant, tests) {
  for (const test of tests) {
    const passed = await new Promise((resolve) => {
      const env = { ...process.env };
      if (mutant === undefined) delete env.__STRYKER_ACTIVE_MUTANT__;
      else env.__STRYKER_ACTIVE_MUTANT__ = String(mutant);
      const child = spawn(process.execPath, ['--import', 'tsx', '--import', './test/helpers/fast-check-seed.ts', join(sandbox, test)], { cwd: sandbox, env, stdio: 'ignore' });
      children.add(child);
      const timer = setTimeout(() => child.kill('SIGKILL'), TEST_TIMEOUT_MS);
      child.on('close', (code) => {
        children.delete(child);
        clearTimeout(timer);
        resolve(code === 0);
      });
    });
    if (!passed) return `test ${test}`;
  }
  return undefined;
}

/** The judgement of one module-level mutant, by a child process that imports the sandbox with the mutant on. */
function judgeInChild(sandbox, id, runs) {
  return new Promise((resolve) => {
    const slim = { ...runs, witnesses: runs.witnesses.map(({ name, family }) => ({ name, family })), correct: runs.correct.map(({ name, family }) => ({ name, family })) };
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', sandbox, JSON.stringify(slim)], {
      cwd: sandbox,
      env: { ...process.env, __STRYKER_ACTIVE_MUTANT__: id },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_TIMEOUT_MS);
    child.on('close', (code, signal) => {
      children.delete(child);
      clearTimeout(timer);
      const verdict = out.trim().split('\n').at(-1) ?? '';
      if (signal === 'SIGKILL') resolve('a timeout');
      else if (code === 0 && verdict.startsWith('{')) resolve(JSON.parse(verdict).killedBy ?? undefined);
      else resolve(`an error (${(err.trim().split('\n').find((l) => /Error/.test(l)) ?? `exit ${code}`).slice(0, 80)})`);
    });
  });
}

/** `--child <sandbox> <runs as JSON>`, with __STRYKER_ACTIVE_MUTANT__ set: prints {"killedBy": …}. */
async function child([sandbox, runs]) {
  const ns = (globalThis.__stryker__ ??= {});
  ns.hitCount = 0;
  ns.hitLimit = 5_000_000;
  let killedBy;
  try {
    const { caught } = await load(sandbox);
    killedBy = await judge(caught, JSON.parse(runs), sandbox, process.env.__STRYKER_ACTIVE_MUTANT__);
  } catch (error) {
    // The mutant breaks the import itself (a catalogue the suite cannot load with): any run fails.
    killedBy = `an error (${String(error).slice(0, 80)})`;
  }
  console.log(JSON.stringify({ killedBy: killedBy ?? null }));
  return 0;
}

const [role, ...rest] = process.argv.slice(2);
if (role === '--child') process.exitCode = await child(rest);
else if (role === '--worker') {
  process.exitCode = await work(rest);
  appendFileSync(rest[0], `${JSON.stringify({ finished: process.exitCode })}\n`);
} else process.exitCode = await main();
// Fixture servers and timers of a mutated run may linger: the verdict is in.
setTimeout(() => process.exit(process.exitCode), 100).unref();
