import { BUSINESS_SCHEDULE } from '@wearable/domain';
import { describe, expect, it } from 'vitest';
import { bulkPatchOf, initialBulkForm, noParts } from './bulk-form';

describe('bulkPatchOf', () => {
  it('nothing chosen is an error of its own', () => {
    expect(bulkPatchOf(initialBulkForm(), noParts()).errors).toEqual({
      parts: { key: 'bulk.errors.noParts' },
    });
  });

  it('sends only the chosen parts', () => {
    const form = {
      ...initialBulkForm(),
      heartRateLower: '50',
      heartRateUpper: '',
      schedule: structuredClone(BUSINESS_SCHEDULE),
    };
    expect(bulkPatchOf(form, { ...noParts(), heartRate: true }).patch).toEqual({
      heartRateLower: 50,
      heartRateUpper: null,
    });
    expect(bulkPatchOf(form, { ...noParts(), schedule: true }).patch).toEqual({
      schedule: BUSINESS_SCHEDULE,
    });
    const types = bulkPatchOf(form, { ...noParts(), types: true }).patch;
    expect(Object.keys(types ?? {})).toEqual(['enabled']);
  });

  it('a bad value of a chosen part is an error by field; of a part not chosen, ignored', () => {
    const form = { ...initialBulkForm(), heartRateLower: '300' };
    expect(bulkPatchOf(form, { ...noParts(), heartRate: true }).errors).toHaveProperty(
      'heartRateLower',
    );
    expect(bulkPatchOf(form, { ...noParts(), types: true }).errors).toBeNull();
  });

  it('upper not above lower is refused as the server would', () => {
    const form = { ...initialBulkForm(), heartRateLower: '120', heartRateUpper: '100' };
    expect(bulkPatchOf(form, { ...noParts(), heartRate: true }).errors).toHaveProperty(
      'heartRateUpper',
    );
  });
});
