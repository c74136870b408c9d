/** " (did you mean status?)" when a known word is a typo away from `word`; else nothing. */
export function didYouMean(word: string, known: readonly string[]): string {
  const match = closest(word, known);
  return match === undefined ? '' : ` (did you mean ${match}?)`;
}

/**
 * The known word a typo away from `word` ("stauts" → "status"), if one is close enough: at most
 * `edits` edits (by default one for every three letters).
 */
export function closest(word: string, known: readonly string[], edits = Math.max(1, Math.floor(word.length / 3))): string | undefined {
  let best: string | undefined;
  let bestDistance = edits + 1;
  for (const candidate of known) {
    const distance = editDistance(word, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Edits (insert, delete, change, swap two neighbours) from one string to the other. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    const row = d[i] as number[];
    const above = d[i - 1] as number[];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}
