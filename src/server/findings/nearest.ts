/**
 * The known name a client most likely meant: `stauts` → `status`,
 * `category_id` → `categoryId`, `Limit` → `limit`. Only a close one is
 * offered; a name far from every known one gets no suggestion, since a wrong
 * guess sends a developer the wrong way.
 */

/** Letters and digits only, lower-cased: `category_id`, `Category-ID` and `categoryId` are one name written three ways. */
function folded(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/**
 * Edit distance counting a swap of two neighbours as one edit (optimal string
 * alignment), so `stauts` is one edit from `status`. Names are short: the
 * quadratic table costs nothing.
 */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row: number[] = [i];
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        row.push(j);
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((rows[i - 1] as number[])[j]! + 1, row[j - 1]! + 1, (rows[i - 1] as number[])[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, (rows[i - 2] as number[])[j - 2]! + 1);
      row.push(d);
    }
    rows.push(row);
  }
  return (rows[a.length] as number[])[b.length]!;
}

/**
 * The known name nearest to `name`, when one is close: the same once case and
 * separators are ignored, or at most two edits away (one for names of four
 * characters or fewer) and nearer than any other.
 */
export function nearestName(name: string, known: readonly string[]): string | undefined {
  const f = folded(name);
  if (f === '') return undefined;
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of known) {
    const c = folded(candidate);
    if (c === f) return candidate;
    // Names of very different lengths are never close: no table for them.
    if (Math.abs(c.length - f.length) > 2) continue;
    const d = editDistance(f, c);
    if (d < bestDistance) {
      bestDistance = d;
      best = candidate;
    }
  }
  const allowed = f.length <= 4 ? 1 : 2;
  return bestDistance <= allowed ? best : undefined;
}
