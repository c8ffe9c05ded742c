import { describe, expect, it } from 'vitest';
import { tickFormatter, timeTicks } from './time-ticks';

const H = 3_600_000;
const at = (s: string) => new Date(s).getTime();

describe('timeTicks (issue 36: sensible ticks for any window and any amount of data)', () => {
  it('a 24-hour window gets round, distinct ticks, whatever the data', () => {
    const to = at('2026-12-02T04:10:00');
    const from = to - 24 * H;
    const ticks = timeTicks(from, to, 6);
    expect(ticks.at.length).toBeGreaterThanOrEqual(3);
    expect(ticks.at.length).toBeLessThanOrEqual(6);
    const labels = ticks.at.map(tickFormatter(ticks, 'ja'));
    expect(new Set(labels).size).toBe(labels.length);
    for (const t of ticks.at) expect(t).toBeGreaterThanOrEqual(from);
    for (const t of ticks.at) expect(t).toBeLessThanOrEqual(to);
    expect(labels).toContain('06:00');
  });

  it('five minutes get minute ticks, not ten "00:00"', () => {
    const from = at('2026-12-02T03:44:00');
    const ticks = timeTicks(from, from + 5 * 60_000, 6);
    const labels = ticks.at.map(tickFormatter(ticks, 'ja'));
    expect(labels).toEqual(['03:44', '03:45', '03:46', '03:47', '03:48', '03:49']);
  });

  it('a month gets day ticks at local midnights, labelled by date', () => {
    const to = at('2026-12-02T04:00:00');
    const ticks = timeTicks(to - 30 * 24 * H, to, 6);
    expect(ticks.withTime).toBe(false);
    for (const t of ticks.at) expect(new Date(t).getHours()).toBe(0);
    const labels = ticks.at.map(tickFormatter(ticks, 'en'));
    expect(new Set(labels).size).toBe(labels.length);
    expect(ticks.at.length).toBeLessThanOrEqual(6);
  });

  it('a week at 360 px: few ticks, each a date', () => {
    const to = at('2026-12-02T04:00:00');
    const ticks = timeTicks(to - 7 * 24 * H, to, 3);
    expect(ticks.at.length).toBeLessThanOrEqual(3);
    expect(ticks.at.length).toBeGreaterThanOrEqual(2);
  });
});
