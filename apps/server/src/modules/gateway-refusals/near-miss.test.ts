import { describe, expect, it } from 'vitest';
import { boundedDistance, nearMiss } from './near-miss.js';
import { classifyRefusal } from './refusal-reasons.js';

describe('"did you mean …?"', () => {
  const registered = ['BR-DAIWA-01', 'BR-DAIWA-02', 'BR-0100', 'BR-0111', 'PHONE-GW-ABC'];
  it.each([
    ['BR-DAIWA-001', 'BR-DAIWA-01'], // one character too many
    ['BR-DAIWA-1', 'BR-DAIWA-01'], // one off -01, two off -02
    ['BRDAIWA01', 'BR-DAIWA-01'], // separators dropped
    ['BR DAIWA 02', 'BR-DAIWA-02'],
    ['BR-0101', null], // one off BR-0100 and BR-0111: ambiguous
    ['PHONE-GW-ABD', 'PHONE-GW-ABC'],
    ['XX-NOTHING-LIKE', null],
  ])('%s → %s', (serial, expected) => {
    expect(nearMiss(serial, registered)).toBe(expected);
  });
  it('counts edits up to the bound only', () => {
    expect(boundedDistance('KITTEN', 'SITTING', 2)).toBe(3);
    expect(boundedDistance('KITTEN', 'SITTEN', 2)).toBe(1);
    expect(boundedDistance('AB', 'ABCD', 2)).toBe(2);
    expect(boundedDistance('AB', 'ABCDE', 2)).toBe(3);
  });
});

describe('refusal reasons as staff see them', () => {
  it.each([
    ['unknown bracelet BR-1', 'UNKNOWN_BRACELET'],
    ['bracelet BR-1 has no wearer', 'NO_WEARER'],
    ['at: needs a UTC offset (Z or ±hh:mm), e.g. …', 'TIME_OFFSET_MISSING'],
    ['location.at: needs a UTC offset (Z or ±hh:mm), e.g. …', 'TIME_OFFSET_MISSING'],
    ['at is more than 7 days in the past', 'TIME_OUT_OF_WINDOW'],
    ['location.at is more than 5 minutes in the future', 'TIME_OUT_OF_WINDOW'],
    ['heartRate 300 is outside 20..250', 'VALUE_OUT_OF_RANGE'],
    ['steps: Too big', 'INVALID_ITEM'],
  ])('%s → %s', (reason, code) => {
    expect(classifyRefusal(reason, { serialNumber: ' br-1 ' })).toEqual({
      reason: code,
      serial: 'BR-1',
      detail: reason,
    });
  });
  it('keeps a NUL out of what is stored', () => {
    expect(
      classifyRefusal('serialNumber must not contain a NUL character', { serialNumber: 'a\u0000b' })
        .serial,
    ).toBe('A\ufffdB');
  });
  it('keeps no serial from an item that named none, and bounds long texts', () => {
    expect(classifyRefusal('x'.repeat(1000), 42)).toEqual({
      reason: 'INVALID_ITEM',
      serial: '',
      detail: 'x'.repeat(300),
    });
  });
});
