/** Separators people and gateways add or drop in serials: `BR-DAIWA-01`, `BR DAIWA 01`, `BRDAIWA01`. */
const SEPARATORS = /[\s\-_.:/]+/g;
const MAX_DISTANCE = 2;

/** Levenshtein distance if it is at most `max`, else max + 1 (a band around the diagonal). */
export function boundedDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = new Array<number>(b.length + 1).fill(max + 1);
    current[0] = i;
    let best = current[0];
    const from = Math.max(1, i - max);
    const to = Math.min(b.length, i + max);
    for (let j = from; j <= to; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(
        (previous[j] ?? max + 1) + 1,
        (current[j - 1] ?? max + 1) + 1,
        (previous[j - 1] ?? max + 1) + cost,
      );
      best = Math.min(best, current[j] ?? max + 1);
    }
    if (best > max) return max + 1;
    previous = current;
  }
  return Math.min(previous[b.length] ?? max + 1, max + 1);
}

/**
 * The registered serial an unknown one nearly is ("did you mean …?"): the same without separators,
 * else the one registered serial at the smallest edit distance (1 or 2). None when two are equally
 * near (BR-0101 beside BR-0100 and BR-0111 names no one) or none is near. Serials are normalised.
 */
export function nearMiss(serial: string, registered: readonly string[]): string | null {
  const bare = serial.replace(SEPARATORS, '');
  const sameBare = registered.filter((r) => r !== serial && r.replace(SEPARATORS, '') === bare);
  if (sameBare.length === 1) return sameBare[0] ?? null;
  if (sameBare.length > 1) return null;
  let best = MAX_DISTANCE + 1;
  let found: string[] = [];
  for (const r of registered) {
    if (r === serial) continue;
    const d = boundedDistance(serial, r, Math.min(best, MAX_DISTANCE));
    if (d < best) {
      best = d;
      found = [r];
    } else if (d === best && d <= MAX_DISTANCE) found.push(r);
  }
  return best <= MAX_DISTANCE && found.length === 1 ? (found[0] ?? null) : null;
}
