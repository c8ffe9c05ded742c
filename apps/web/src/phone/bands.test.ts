import { describe, expect, it } from 'vitest';
import { bandSerialNumber } from './bands';

// The serial number a band gets in the batch: what staff type when they register it (printable ASCII, 64 at most).
describe('bandSerialNumber', () => {
  it('joins the name and the id the browser gives the band', () => {
    expect(bandSerialNumber('HRM-1', 's3dY2LY/4J2TCTjO03ZCJg==')).toBe(
      'HRM-1-s3dY2LY/4J2TCTjO03ZCJg==',
    );
  });

  it('replaces spaces and non-ASCII, names a nameless band, and stays within 64 characters', () => {
    expect(bandSerialNumber('Polar H10 8C2B', 'abc')).toBe('Polar-H10-8C2B-abc');
    expect(bandSerialNumber('心拍ベルト', 'abc')).toBe('BAND-abc');
    expect(bandSerialNumber(undefined, 'abc')).toBe('BAND-abc');
    const long = bandSerialNumber('x'.repeat(100), 'y'.repeat(60));
    expect(long.length).toBeLessThanOrEqual(64);
    expect(long).toMatch(/^[\x21-\x7e]+$/);
    expect(long.endsWith('y'.repeat(40))).toBe(true);
  });
});
