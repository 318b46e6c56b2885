/**
 * How a mutant is named in mutation/equivalents.json and
 * mutation/check-equivalents.json, for both parts of `npm run mutate`: its
 * file, the source line it changes (trimmed, so indentation does not matter),
 * the column in that trimmed line where the change starts, the mutator, the
 * text it replaces and the text it puts there. Line numbers are not used:
 * they move with every edit.
 */

/**
 * `start` and `end` count lines and columns from 0 (the instrumenter's
 * locations; Stryker's report counts both from 1: subtract 1 first).
 */
export function describeMutant(file, source, { start, end }, mutator, replacement) {
  const text = source.split('\n')[start.line] ?? '';
  const indent = text.length - text.trimStart().length;
  const original = start.line === end.line ? text.slice(start.column, end.column) : `${text.slice(start.column)}…`;
  return { file, line: text.trim(), at: start.column + 1 - indent, mutator, original, replacement: replacement ?? '' };
}

/** The identity of an entry: what it was recorded by, never its reason or status. */
export const entryKey = (e) => JSON.stringify([e.file, e.line, e.at, e.mutator, e.original, e.replacement]);
