// npm test's first step: build the code (dist/, which the fixtures import)
// and type-check the tests, the two tsc runs side by side on two cores
// rather than one after the other. Fails when either does.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const run = (project) =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [tsc, '-p', project], { stdio: 'inherit' });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });

const codes = await Promise.all([run('tsconfig.json'), run('tsconfig.test.json')]);
process.exitCode = codes.some((code) => code !== 0) ? 1 : 0;
