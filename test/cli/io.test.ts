// Where a command writes and reads (cli/io.ts): the process's own streams and
// environment by default; a UsageError is a mistake in how the command was
// called, reported in one line with exit code 2.
import t from 'tap';
import { processIo, UsageError } from '../../cli/io.js';

t.test('by default a command writes to the process stdout and stderr and reads its environment', async (t) => {
  t.equal(processIo.stdout, process.stdout);
  t.equal(processIo.stderr, process.stderr);
  t.equal(processIo.env, process.env);
});

t.test('a usage error is an Error with code "usage" and exit code 2', async (t) => {
  const error = new UsageError('--port abc is not a port');
  t.ok(error instanceof Error);
  t.ok(error instanceof UsageError);
  t.equal(error.message, '--port abc is not a port');
  t.equal(error.code, 'usage');
  t.equal(error.exitCode, 2);
  t.match(String(error.stack), /--port abc is not a port/, 'its stack names it, for a bug report');
});
