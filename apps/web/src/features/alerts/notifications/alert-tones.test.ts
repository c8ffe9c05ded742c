import { ALERT_LEVELS, type AlertLevel } from '@wearable/domain';
import { describe, expect, it } from 'vitest';
import { ALERT_TONES, loudestLevel } from './alert-tones';

const shape = (level: AlertLevel) =>
  ALERT_TONES[level].notes.map((n) => `${n.at}:${n.frequency}:${n.length}`).join(' ');

describe('ALERT_TONES (issue 34 item 5: an EMERGENCY repeats, in its own pattern)', () => {
  it.each<[AlertLevel, number | null]>([
    ['EMERGENCY', 4_000],
    ['CRITICAL', null],
    ['CAUTION', null],
    ['DEVICE_STATUS', null],
  ])('%s repeats every %s ms', (level, repeatMs) => {
    expect(ALERT_TONES[level].repeatMs).toBe(repeatMs);
  });

  it('repeats an EMERGENCY "every few seconds": between 2 and 10 s', () => {
    const { repeatMs } = ALERT_TONES.EMERGENCY;
    expect(repeatMs).toBeGreaterThanOrEqual(2_000);
    expect(repeatMs).toBeLessThanOrEqual(10_000);
  });

  it('gives EMERGENCY a pattern no other level has, CRITICAL keeping the spec two beeps', () => {
    for (const level of ALERT_LEVELS.filter((l) => l !== 'EMERGENCY'))
      expect(shape(level)).not.toBe(shape('EMERGENCY'));
    expect(shape('CRITICAL')).toBe('0:880:0.2 0.25:660:0.2');
  });

  it('ends every pattern well before it repeats, its notes in order and apart', () => {
    for (const level of ALERT_LEVELS) {
      const { notes, repeatMs } = ALERT_TONES[level];
      notes.forEach((note, i) => {
        const next = notes[i + 1];
        if (next) expect(next.at).toBeGreaterThan(note.at + note.length);
      });
      const last = notes[notes.length - 1]!;
      if (repeatMs !== null) expect((last.at + last.length) * 1000).toBeLessThan(repeatMs / 2);
    }
  });
});

describe('loudestLevel', () => {
  it.each<[AlertLevel[], AlertLevel | null]>([
    [[], null],
    [['CAUTION'], 'CAUTION'],
    [['CAUTION', 'CRITICAL'], 'CRITICAL'],
    [['DEVICE_STATUS', 'EMERGENCY', 'CRITICAL'], 'EMERGENCY'],
    [['DEVICE_STATUS', 'CAUTION'], 'CAUTION'],
  ])('%j -> %s', (levels, loudest) => {
    expect(loudestLevel(levels)).toBe(loudest);
  });
});
