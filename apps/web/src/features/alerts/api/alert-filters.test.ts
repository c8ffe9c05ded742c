import { describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_FILTERS, filtersToQuery } from './alert-filters';

const NOW = Date.parse('2026-11-21T12:00:00.000Z');

describe('filtersToQuery', () => {
  it('sends only what is set: the default is the last 7 days, nothing else', () => {
    expect(filtersToQuery(DEFAULT_ALERT_FILTERS, NOW)).toEqual({
      notConfirmed: undefined,
      type: undefined,
      level: undefined,
      from: '2026-11-14T12:00:00.000Z',
      uid: undefined,
    });
  });

  it('maps unconfirmed only, type, level, period and wearer', () => {
    expect(
      filtersToQuery(
        { notConfirmed: true, type: 'SOS_CALL', level: 'EMERGENCY', period: '24h', uid: 'w1' },
        NOW,
      ),
    ).toEqual({
      notConfirmed: 'true',
      type: 'SOS_CALL',
      level: 'EMERGENCY',
      from: '2026-11-20T12:00:00.000Z',
      uid: 'w1',
    });
  });

  it('all time sends no from; 30 days goes back 30 days', () => {
    expect(filtersToQuery({ ...DEFAULT_ALERT_FILTERS, period: 'all' }, NOW).from).toBeUndefined();
    expect(filtersToQuery({ ...DEFAULT_ALERT_FILTERS, period: '30d' }, NOW).from).toBe(
      '2026-10-22T12:00:00.000Z',
    );
  });
});
