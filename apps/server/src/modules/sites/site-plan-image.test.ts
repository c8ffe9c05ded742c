import { describe, expect, it } from 'vitest';
import { jpegHeader, png, webpHeader } from '../../testing/images.js';
import { magicFormat, readPlanImage } from './site-plan-image.js';

/** A plan is taken by its content only: magic bytes and a header read for its size agree. */
describe('readPlanImage', () => {
  it.each([
    ['a PNG', png(40, 30), { format: 'png', width: 40, height: 30 }],
    ['a JPEG', jpegHeader(1024, 768), { format: 'jpeg', width: 1024, height: 768 }],
    ['a WebP', webpHeader(640, 480), { format: 'webp', width: 640, height: 480 }],
  ])('takes %s with its dimensions', (_what, bytes, want) => {
    expect(readPlanImage(bytes)).toEqual({ ok: true, ...want });
  });

  it.each([
    ['an empty file', Buffer.alloc(0), /empty/],
    ['text', Buffer.from('hello, this is not an image'), /not a PNG, JPEG or WebP/],
    [
      'an SVG',
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      /SVG/,
    ],
    ['a GIF', Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'), /not a PNG/],
    ['a PNG signature then nothing', png(4, 4).subarray(0, 10), /not a readable PNG/],
    ['a JPEG start then garbage', Buffer.from([0xff, 0xd8, 0xff, 0x00, 1, 2, 3]), /readable JPEG/],
    ['RIFF that is not WebP', Buffer.from('RIFF\x04\x00\x00\x00WAVE', 'latin1'), /not a PNG/],
  ])('refuses %s', (_what, bytes, problem) => {
    const read = readPlanImage(bytes);
    expect(read.ok).toBe(false);
    expect(read.ok ? '' : read.problem).toMatch(problem);
  });

  it('reads the format from the first bytes only', () => {
    expect(magicFormat(Buffer.from('<?xml version="1.0"?><svg/>'))).toBeNull();
    expect(magicFormat(png(1, 1))).toBe('png');
  });
});
