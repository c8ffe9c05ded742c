import type { AlertView } from '@wearable/domain';
import { describe, expect, it } from 'vitest';
import { alert } from '../alerts-test-utils';
import { repeatOf, ringingAlerts, unseenAlerts, wallMonitorAlert } from './attention-rules';

const sos = (id: string): AlertView => alert(id, { type: 'SOS_CALL', level: 'EMERGENCY' });
const heat = (id: string): AlertView => alert(id, { type: 'HEATSTROKE', level: 'CRITICAL' });

describe('ringingAlerts and repeatOf (an EMERGENCY repeats until confirmed or muted)', () => {
  it('rings for unconfirmed emergencies only, every 4 s', () => {
    const ringing = ringingAlerts([sos('a'), heat('b')], new Set());
    expect(ringing.map((a) => a.id)).toEqual(['a']);
    expect(repeatOf(ringing)).toEqual({ level: 'EMERGENCY', everyMs: 4_000 });
  });

  it('stops for an alert muted in this tab, and keeps ringing for the others', () => {
    expect(ringingAlerts([sos('a'), sos('b')], new Set(['a'])).map((a) => a.id)).toEqual(['b']);
    expect(repeatOf(ringingAlerts([sos('a')], new Set(['a'])))).toBeNull();
  });

  it('does not ring for CRITICAL alone', () => {
    expect(repeatOf(ringingAlerts([heat('b')], new Set()))).toBeNull();
  });
});

describe('unseenAlerts', () => {
  it('keeps the order and leaves out what was seen', () => {
    expect(unseenAlerts([sos('c'), heat('b'), sos('a')], new Set(['b'])).map((a) => a.id)).toEqual([
      'c',
      'a',
    ]);
  });
});

describe('wallMonitorAlert', () => {
  it('shows an emergency before a newer critical one, and counts the rest', () => {
    expect(wallMonitorAlert([heat('b'), sos('a'), sos('c')], new Set())).toEqual({
      alert: expect.objectContaining({ id: 'a' }) as AlertView,
      more: 2,
    });
  });

  it('moves on when one is dismissed, and shows nothing when all are', () => {
    expect(wallMonitorAlert([sos('a'), heat('b')], new Set(['a']))?.alert.id).toBe('b');
    expect(wallMonitorAlert([sos('a')], new Set(['a']))).toBeNull();
  });
});
