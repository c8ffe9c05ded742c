import type { SummaryResponse, WearerSummary } from '@wearable/domain';
import { describe, expect, it } from 'vitest';
import { coverageOf, mergeSummaryEvent } from './summary-api';

function wearer(uid: string, patch: Partial<WearerSummary> = {}): WearerSummary {
  return {
    uid,
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

const summary = (wearers: WearerSummary[]): SummaryResponse => ({
  generatedAt: '2026-11-21T09:00:00.000Z',
  wearers,
});

describe('mergeSummaryEvent', () => {
  it('replaces the wearer the event is about and leaves the others alone', () => {
    const a = wearer('a');
    const b = wearer('b');
    const merged = mergeSummaryEvent(summary([a, b]), wearer('b', { heartRate: 150 }));
    expect(merged?.wearers.map((w) => [w.uid, w.heartRate])).toEqual([
      ['a', 70],
      ['b', 150],
    ]);
    expect(merged?.wearers[0]).toBe(a);
  });

  it('adds a wearer the list did not have yet', () => {
    expect(
      mergeSummaryEvent(summary([wearer('a')]), wearer('c'))?.wearers.map((w) => w.uid),
    ).toEqual(['a', 'c']);
  });

  it('does nothing before the first fetch', () => {
    expect(mergeSummaryEvent(undefined, wearer('a'))).toBeUndefined();
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
