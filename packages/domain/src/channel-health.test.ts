import { describe, expect, it } from 'vitest';
import {
  CHANNEL_FAILING_AFTER_MS,
  channelFailureNoticeChannels,
  channelFailureStep,
} from './channel-health.js';

const now = new Date('2026-12-03T06:00:00Z');
const ago = (minutes: number) => new Date(now.getTime() - minutes * 60_000);

describe('channelFailureStep', () => {
  it.each([
    [
      'never failed',
      { lastDeliveredAt: ago(1), lastFailedAt: null, failingSince: null },
      null,
      'none',
    ],
    [
      'failing for 9 minutes',
      { lastDeliveredAt: null, lastFailedAt: ago(1), failingSince: ago(9) },
      null,
      'none',
    ],
    [
      'failing for 10 minutes',
      { lastDeliveredAt: ago(30), lastFailedAt: ago(1), failingSince: ago(10) },
      null,
      'open',
    ],
    [
      'one failure 10 minutes ago, nothing since',
      { lastDeliveredAt: null, lastFailedAt: ago(10), failingSince: ago(10) },
      null,
      'open',
    ],
    [
      'a run whose last failure is two days old',
      { lastDeliveredAt: null, lastFailedAt: ago(2880), failingSince: ago(3000) },
      null,
      'none',
    ],
    [
      'open and still failing',
      { lastDeliveredAt: ago(30), lastFailedAt: ago(1), failingSince: ago(20) },
      ago(20),
      'none',
    ],
    [
      'open and delivered since',
      { lastDeliveredAt: ago(1), lastFailedAt: ago(2), failingSince: null },
      ago(20),
      'close',
    ],
  ] as const)('%s', (_what, attempts, openSince, step) => {
    expect(channelFailureStep(attempts, openSince, now)).toBe(step);
  });

  it('counts from the threshold exactly', () => {
    expect(CHANNEL_FAILING_AFTER_MS).toBe(600_000);
  });
});

describe('channelFailureNoticeChannels', () => {
  it('never tells the owners by the failing channel', () => {
    expect(channelFailureNoticeChannels('SMS')).toEqual(['EMAIL']);
    expect(channelFailureNoticeChannels('PHONE_CALL')).toEqual(['EMAIL']);
    expect(channelFailureNoticeChannels('EMAIL')).toEqual(['SMS']);
    expect(channelFailureNoticeChannels('WEBHOOK')).toEqual(['EMAIL', 'SMS']);
  });
});
