// `petstore conform --help` (cli/conform.ts), in process: every default is
// shown in the unit its option is given in, so that the help is something a
// user can type back.
import { PassThrough } from 'node:stream';
import t from 'tap';
import { run } from '../../../cli/main.js';
import { defaultRunOptions } from '../../../conformance/index.js';

async function help(): Promise<string> {
  let text = '';
  const stdout = new PassThrough().on('data', (chunk: Buffer) => (text += chunk));
  const code = await run(['conform', '--help'], { stdout, stderr: new PassThrough(), env: {} });
  t.equal(code, 0, 'help exits 0');
  return text.replace(/\s+/g, ' ');
}

t.test('the options given in seconds show their defaults in seconds, the others as given', async (t) => {
  const text = await help();
  t.match(text, `--settle <s> how long, in seconds,`);
  t.match(text, new RegExp(`read-your-writes \\(default: ${defaultRunOptions.settleMs / 1000}\\)`), '--settle: seconds, not milliseconds');
  t.match(text, new RegExp(`skipped \\(default: ${defaultRunOptions.timeBudgetMs / 1000}\\)`), '--time-budget: seconds');
  t.match(text, new RegExp(`per-request timeout in milliseconds \\(default: ${defaultRunOptions.timeoutMs}\\)`), '--timeout: milliseconds');
});

t.test('--settle is held in milliseconds whatever the help shows', async (t) => {
  const program = (await import('../../../cli/main.js')).createProgram({ stdout: new PassThrough(), stderr: new PassThrough(), env: {} });
  const conform = program.commands.find((c) => c.name() === 'conform')!;
  t.equal(conform.getOptionValue('settle'), defaultRunOptions.settleMs, 'the default value itself is in milliseconds');
  t.equal(conform.options.find((o) => o.long === '--settle')?.parseArg?.('0.5', undefined), 500, '0.5 s is 500 ms');
});
