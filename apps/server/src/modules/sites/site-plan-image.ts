import { imageSize } from 'image-size';
import { SITE_PLAN_MAX_BYTES, type SitePlanFormat } from '@wearable/domain';

/** What an uploaded plan is, read from its bytes; or why it is refused. */
export type PlanImage =
  | { ok: true; format: SitePlanFormat; width: number; height: number }
  | { ok: false; problem: string };

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const startsWith = (b: Uint8Array, sig: number[], at = 0) => sig.every((v, i) => b[at + i] === v);
const ascii = (b: Uint8Array, from: number, to: number) =>
  String.fromCharCode(...b.subarray(from, to));

/** The format its first bytes (magic numbers) claim; null for anything else (SVG, text, GIF …). */
export function magicFormat(b: Uint8Array): SitePlanFormat | null {
  if (startsWith(b, PNG)) return 'png';
  if (startsWith(b, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (b.length >= 12 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP') return 'webp';
  return null;
}

// image-size's names for the three formats we take.
const SIZE_TYPE: Record<SitePlanFormat, string> = { png: 'png', jpeg: 'jpg', webp: 'webp' };

/**
 * A plan is taken only if its content is a PNG, JPEG or WebP twice over: its magic bytes say so,
 * and its header can be read for its dimensions as that same format (image-size). Its name and
 * declared type are never consulted, so an SVG or HTML file renamed .png is refused; the server
 * later serves it with the Content-Type of the format found here.
 */
export function readPlanImage(bytes: Uint8Array): PlanImage {
  if (bytes.length === 0) return { ok: false, problem: 'the file is empty' };
  if (bytes.length > SITE_PLAN_MAX_BYTES)
    return { ok: false, problem: `the file is over ${SITE_PLAN_MAX_BYTES} bytes (5 MB)` };
  const format = magicFormat(bytes);
  if (format === null)
    return {
      ok: false,
      problem: 'is not a PNG, JPEG or WebP image (SVG and other formats are not accepted)',
    };
  try {
    const size = imageSize(bytes);
    const { width, height } = size;
    if (size.type !== SIZE_TYPE[format] || !width || !height)
      return { ok: false, problem: `is not a readable ${format.toUpperCase()} image` };
    return { ok: true, format, width, height };
  } catch {
    return { ok: false, problem: `is not a readable ${format.toUpperCase()} image` };
  }
}
