/**
 * Where the server's API keys come from: `--api-key` (repeatable), the
 * `PETSTORE_API_KEYS` environment variable (comma-separated) and
 * `--api-keys-file` (one key per line, `#` comments). All sources add up.
 * argv is readable by every user of the machine (`ps`), so the file and the
 * environment are the better places for a real key.
 */
import { readFileSync } from 'node:fs';
import { UsageError } from './io.js';

export interface KeySources {
  flags?: readonly string[];
  env?: string;
  file?: string;
}

export function resolveApiKeys({ flags = [], env, file }: KeySources): string[] {
  const keys = [...flags, ...(env ?? '').split(',')];
  if (file) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new UsageError(`cannot read --api-keys-file ${file}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
    }
    keys.push(...text.split(/\r?\n/).filter((line) => !line.trimStart().startsWith('#')));
  }
  const trimmed = keys.map((key) => key.trim()).filter((key) => key !== '');
  for (const key of trimmed) {
    if (/\s/.test(key)) throw new UsageError('an API key cannot contain white space (it travels as a Bearer token)');
  }
  return [...new Set(trimmed)];
}
