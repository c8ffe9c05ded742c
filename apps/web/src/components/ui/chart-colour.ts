import type { Theme } from '../../lib/theme';

/** The dark card's luminance (scripts/dark-palette.mjs, CARD_Y): charts are drawn on it. */
const DARK_CARD_Y = 0.015;

const toLinear = (v: number) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
const toSrgb = (v: number) => (v <= 0.0031308 ? v * 12.92 : 1.055 * v ** (1 / 2.4) - 0.055);

/**
 * A series colour (#rrggbb, chosen against white) for the theme on screen. In the dark it is tinted towards white
 * until it stands out from the dark card by the ratio it had on white, as the palette's shades do.
 */
export function chartColour(hex: string, theme: Theme): string {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (theme === 'light' || m === null) return hex;
  const linear = [m[1]!, m[2]!, m[3]!].map((h) => toLinear(parseInt(h, 16) / 255));
  const [r = 0, g = 0, b = 0] = linear;
  const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const ratioOnWhite = 1.05 / (y + 0.05);
  const target = Math.min(1, ratioOnWhite * (DARK_CARD_Y + 0.05) - 0.05);
  if (target <= y) return hex;
  const t = (target - y) / (1 - y);
  return `#${linear
    .map((v) =>
      Math.round(toSrgb(v + t * (1 - v)) * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}
