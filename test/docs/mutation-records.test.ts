// The records of `npm run mutate` (mutation/equivalents.json, mutation/
// check-equivalents.json; docs/mutation.md) name each mutant by its file, its
// source line (trimmed), the column where it starts and the text it replaces:
// a record whose line was moved or edited without it no longer matches any
// mutant, and the next run counts that mutant as a survivor. So every record
// must still name a line of its file with that text at that column.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';

const root = new URL('../../', import.meta.url).pathname;

interface MutationRecord {
  readonly file: string;
  readonly line: string;
  readonly at: number;
  readonly original: string;
}

for (const records of ['mutation/equivalents.json', 'mutation/check-equivalents.json']) {
  t.test(`every record of ${records} names a line that is still there`, async (t) => {
    const entries = JSON.parse(readFileSync(join(root, records), 'utf8')) as MutationRecord[];
    t.ok(entries.length > 50, `${entries.length} records`);
    const sources = new Map<string, string[]>();
    const lost: string[] = [];
    for (const e of entries) {
      if (!existsSync(join(root, e.file))) {
        lost.push(`${e.file}: no such file`);
        continue;
      }
      if (!sources.has(e.file))
        sources.set(
          e.file,
          readFileSync(join(root, e.file), 'utf8')
            .split('\n')
            .map((line) => line.trim()),
        );
      // A mutant over several lines is recorded with its first line and an ellipsis.
      const original = e.original.endsWith('…') ? e.original.slice(0, -1) : e.original;
      const found = sources.get(e.file)!.some((line) => line === e.line && line.slice(e.at - 1).startsWith(original));
      if (!found) lost.push(`${e.file}: ${JSON.stringify(original)} at column ${e.at} of ${JSON.stringify(e.line)}`);
    }
    t.strictSame(lost, [], 'no record lost its line');
  });
}
