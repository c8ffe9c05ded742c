import type { DeviceSummary, LiveAlertEvent, WearerSummary } from '@wearable/domain';
import { describe, expect, it } from 'vitest';
import { applyAlertEvent, coverageOf, type LiveSummary, mergeSummaryEvents } from './summary-api';

function wearer(uid: string, patch: Partial<DeviceSummary> = {}): DeviceSummary {
  return {
    uid,
    deviceName: `Band ${uid}`,
    name: `Wearer ${uid}`,
    clientId: 'c1',
    groupId: null,
    groupName: null,
    serialNumber: `BR-${uid}`,
    heartRate: 70,
    skinTemperature: 34.1,
    worn: true,
    battery: 80,
    connection: 'online',
    lastSeenAt: '2026-11-21T09:00:00.000Z',
    openAlerts: [],
    ...patch,
  };
}

/** A live `summary` event: the wearer's state without the bracelet's name. */
function event(uid: string, patch: Partial<WearerSummary> = {}): WearerSummary {
  const { deviceName: _, ...state } = wearer(uid, patch);
  return state;
}

const summary = (wearers: DeviceSummary[]): LiveSummary => ({
  generatedAt: '2026-11-21T09:00:00.000Z',
  wearers,
});

describe('mergeSummaryEvents', () => {
  it('replaces the wearers the events are about, keeps the bracelet name, leaves the others alone', () => {
    const a = wearer('a');
    const b = wearer('b');
    const merged = mergeSummaryEvents(summary([a, b]), [event('b', { heartRate: 150 })]);
    expect(merged?.wearers.map((w) => [w.uid, w.heartRate, w.deviceName])).toEqual([
      ['a', 70, 'Band a'],
      ['b', 150, 'Band b'],
    ]);
    expect(merged?.wearers[0]).toBe(a);
  });

  it('applies several events at once, the last for a wearer winning, and adds a new wearer', () => {
    const merged = mergeSummaryEvents(summary([wearer('a'), wearer('b')]), [
      event('a', { heartRate: 90 }),
      event('c', { heartRate: 60 }),
      event('a', { heartRate: 91 }),
    ]);
    expect(merged?.wearers.map((w) => [w.uid, w.heartRate])).toEqual([
      ['a', 91],
      ['b', 70],
      ['c', 60],
    ]);
    expect(merged?.wearers[2]?.deviceName).toBeNull();
  });

  it('does nothing before the first fetch or without events', () => {
    expect(mergeSummaryEvents(undefined, [event('a')])).toBeUndefined();
    const current = summary([wearer('a')]);
    expect(mergeSummaryEvents(current, [])).toBe(current);
  });
});

describe('applyAlertEvent', () => {
  const alert = (id: string, status: 'OPEN' | 'CLOSED', uid = 'b') =>
    ({
      action: status === 'OPEN' ? 'opened' : 'closed',
      alert: {
        id,
        type: 'SOS_CALL',
        level: 'EMERGENCY',
        status,
        openedAt: '2026-11-21T09:05:00.000Z',
        wearer: { uid, name: `Wearer ${uid}` },
      },
    }) as unknown as LiveAlertEvent;

  it("adds an opened alert to its wearer's open alerts and removes it when closed, nothing else", () => {
    const a = wearer('a');
    const opened = applyAlertEvent(summary([a, wearer('b')]), alert('al1', 'OPEN'));
    expect(opened?.wearers[1]?.openAlerts).toEqual([
      { id: 'al1', type: 'SOS_CALL', level: 'EMERGENCY', openedAt: '2026-11-21T09:05:00.000Z' },
    ]);
    expect(opened?.wearers[0]).toBe(a);
    // The same event twice does not add it twice.
    expect(applyAlertEvent(opened, alert('al1', 'OPEN'))?.wearers[1]?.openAlerts).toHaveLength(1);
    expect(applyAlertEvent(opened, alert('al1', 'CLOSED'))?.wearers[1]?.openAlerts).toEqual([]);
  });

  it('leaves the summary as it is for a wearer it does not list', () => {
    const current = summary([wearer('a')]);
    expect(applyAlertEvent(current, alert('al1', 'OPEN', 'zz'))).toBe(current);
  });
});

describe('coverageOf', () => {
  it('counts not worn, offline, battery <= 20 % and open emergency/critical alerts', () => {
    const coverage = coverageOf([
      wearer('1', { worn: false }),
      wearer('2', { connection: 'offline', battery: 20 }),
      wearer('3', { battery: 21, worn: null }),
      wearer('4', {
        openAlerts: [
          { id: 'x', type: 'SOS_CALL', level: 'EMERGENCY', openedAt: '2026-11-21T09:00:00Z' },
        ],
      }),
      wearer('5', {
        openAlerts: [
          { id: 'y', type: 'HEART_RATE', level: 'CAUTION', openedAt: '2026-11-21T09:00:00Z' },
        ],
      }),
      wearer('6', { battery: null }),
    ]);
    expect(coverage).toEqual({ total: 6, notWorn: 1, offline: 1, lowBattery: 1, urgent: 1 });
  });
});
