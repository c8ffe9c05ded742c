/** Types of dark-palette.mjs, for its test (apps/web/src/lib/theme.test.ts). */
export interface Oklch {
  l: number;
  c: number;
  h: number;
}
export type Palette = Record<string, string>;
export const HUES: readonly string[];
export const STEPS: readonly number[];
export const CARD_Y: number;
export const SOLID: readonly string[];
export function parseOklch(text: string): Oklch;
export function luminance(colour: Oklch): number;
export function contrast(y1: number, y2: number): number;
export function mirrorLuminance(y: number): number;
export function withLuminance(y: number, c: number, h: number): Oklch;
export function lightPalette(): Palette;
export function darkPalette(light: Palette): Palette;
export function stylesheet(): string;
