import { describe, expect, it } from 'vitest';
import { chartColour } from './chart-colour';

const luminance = (hex: string) => {
  const [r = 0, g = 0, b = 0] = [1, 3, 5].map((i) => {
    const v = parseInt(hex.slice(i, i + 2), 16) / 255;
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const DARK_CARD = 0.015;

describe('chart colours', () => {
  it('stay as chosen in the light theme', () => {
    expect(chartColour('#be123c', 'light')).toBe('#be123c');
  });

  it.each(['#be123c', '#0f766e', '#b45309', '#dc2626', '#7c3aed', '#0369a1'])(
    'stand out from the dark card by the ratio %s had on white (3:1 or more)',
    (hex) => {
      const dark = chartColour(hex, 'dark');
      const onWhite = 1.05 / (luminance(hex) + 0.05);
      const onCard = (luminance(dark) + 0.05) / (DARK_CARD + 0.05);
      expect(onCard).toBeCloseTo(onWhite, 1);
      expect(onCard).toBeGreaterThanOrEqual(3);
    },
  );
});
