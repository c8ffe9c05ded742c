import { describe, expect, it } from 'vitest';
import { percentilesCont, unpackInstants } from './response-times-figures.js';

/** percentile_cont as PostgreSQL computes it, over a sorted copy. */
function bySorting(values: readonly number[], p: number): number | null {
  const sorted = Float64Array.from(values).sort();
  if (sorted.length === 0) return null;
  const position = p * (sorted.length - 1);
  const first = Math.floor(position);
  const proportion = position - first;
  return proportion === 0
    ? sorted[first]!
    : sorted[first]! + proportion * (sorted[first + 1]! - sorted[first]!);
}

describe('response-time percentiles', () => {
  it('selection gives what sorting gives, with ties, zeros and any length', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (const n of [0, 1, 2, 3, 10, 11, 999, 5000]) {
      for (const spread of [1, 20, 1e6]) {
        const values = Array.from({ length: n }, () =>
          random() < 0.1 ? 0 : Math.floor(random() * spread * 1e6) / 1e6,
        );
        expect(percentilesCont(Float64Array.from(values), [0.5, 0.9])).toEqual([
          bySorting(values, 0.5),
          bySorting(values, 0.9),
        ]);
      }
    }
  });

  it('reads timestamptz_send values as exact microseconds, and the NULL marker as NaN', () => {
    const packed = Buffer.alloc(24);
    packed.writeBigInt64BE(851_212_800_123_457n, 0); // some 27 years after 2000, to the microsecond
    packed.writeBigInt64BE(-1n, 8);
    packed.writeBigInt64BE(-(2n ** 63n), 16);
    const [at, before2000, none] = unpackInstants(packed.toString('base64'));
    expect([at, before2000]).toEqual([851_212_800_123_457, -1]);
    expect(none).toBeNaN();
  });
});
