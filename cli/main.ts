/**
 * The `petstore` command: a program of subcommands, declared as data. It never
 * calls process.exit itself; `main` turns the outcome into an exit code.
 */
import { Command, CommanderError } from '@commander-js/extra-typings';
import { UsageError, processIo, type CliIo } from './io.js';
import { conformCommand } from './conform.js';
import { proxyCommand } from './proxy.js';
import { serveCommand } from './serve.js';

export function createProgram(io: CliIo = processIo) {
  const program = new Command('petstore')
    .description('Reference server, conformance suite and checking proxy for the Pet Store Service Interface v1')
    .version('0.1.0')
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .addCommand(serveCommand(io))
    .addCommand(conformCommand(io))
    .addCommand(proxyCommand(io));
  for (const command of program.commands) {
    command.exitOverride().configureOutput({ writeOut: (t) => io.stdout.write(t), writeErr: (t) => io.stderr.write(t) });
  }
  return program;
}

/** Runs the command line and resolves with the exit code: 0 success, 1 a failed check, 2 a usage error. */
export async function run(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  const program = createProgram(io);
  try {
    await program.parseAsync(argv as string[], { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help' ? 0 : 2;
    }
    if (error instanceof UsageError) {
      io.stderr.write(`petstore: ${error.message}\n`);
      return error.exitCode;
    }
    io.stderr.write(`petstore: unexpected error: ${(error as Error).stack ?? String(error)}\n`);
    return 1;
  }
}
