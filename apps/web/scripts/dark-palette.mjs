#!/usr/bin/env node
// Writes apps/web/src/dark-theme.css: the dark theme as Tailwind's own palette variables, redefined.
// Every shade is mirrored (50 <-> 950, 100 <-> 900, ...) by a luminance map that keeps WCAG contrast ratios:
// Y' = K / (Y + 0.05) - 0.05 turns the ratio (a + 0.05) / (b + 0.05) of any two colours into the same ratio,
// reversed, so a text/background pair that passes in the light theme passes in the dark one (colours that would
// come out brighter than MAX_Y are held there, where ratios were far above 4.5:1 anyway). The hue stays;
// the chroma is the mirrored shade's, so a dark tint is as coloured as Tailwind's 950 and a light text as soft
// as its 200. Usage: node apps/web/scripts/dark-palette.mjs [--check]
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** The palettes the console uses (grep the classes before adding one). */
export const HUES = [
  'slate',
  'red',
  'orange',
  'amber',
  'green',
  'emerald',
  'teal',
  'sky',
  'blue',
  'indigo',
];
export const STEPS = [50, 100, 200, 300, 400, 500, 600, 700, 800, 900, 950];
/** Luminance of a dark card (what white becomes): about #1a212c. */
export const CARD_Y = 0.015;
/** The page behind the cards (slate-50) a little darker than them, as dark themes do: only raises contrast. */
const PAGE_Y = 0.009;
/** Page and cards: a slate grey, as blue as the slate text on them and no more. */
const NEUTRAL_CHROMA = 0.025;
const NEUTRAL_HUE = 262;
const K = (1 + 0.05) * (CARD_Y + 0.05);
/** The brightest text: white on a dark screen glares at night; 14:1 on a card is plenty. */
const MAX_Y = 0.88;

/**
 * Solid surfaces keep their light-theme colours, children included: the red alert band and wall monitor stay
 * red with white text, the teal buttons teal. Their pairs already pass in the light theme.
 */
export const SOLID = [
  ...['red', 'orange', 'green', 'emerald', 'teal', 'sky', 'blue', 'indigo'].flatMap((hue) =>
    [500, 600, 700, 800, 900, 950].map((step) => `bg-${hue}-${step}`),
  ),
  ...[700, 800, 900, 950].map((step) => `bg-slate-${step}`),
];

export function parseOklch(text) {
  const m = /oklch\(([\d.]+)%\s+([\d.]+)\s+([\d.]+)\)/.exec(text);
  if (!m) throw new Error(`not an oklch colour: ${text}`);
  return { l: Number(m[1]) / 100, c: Number(m[2]), h: Number(m[3]) };
}

/** Linear sRGB of an OKLCH colour (Björn Ottosson's matrices). */
function linearRgb({ l, c, h }) {
  const a = c * Math.cos((h * Math.PI) / 180);
  const b = c * Math.sin((h * Math.PI) / 180);
  const l_ = (l + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m_ = (l - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s_ = (l - 0.0894841775 * a - 1.291485548 * b) ** 3;
  return [
    4.0767416621 * l_ - 3.3077115913 * m_ + 0.2309699292 * s_,
    -1.2684380046 * l_ + 2.6097574011 * m_ - 0.3413193965 * s_,
    -0.0041960863 * l_ - 0.7034186147 * m_ + 1.707614701 * s_,
  ];
}

const inGamut = (rgb) => rgb.every((v) => v >= -1e-4 && v <= 1 + 1e-4);

/** WCAG relative luminance of an in-gamut OKLCH colour. */
export function luminance(colour) {
  const [r, g, b] = linearRgb(colour).map((v) => Math.min(1, Math.max(0, v)));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export const contrast = (y1, y2) => (Math.max(y1, y2) + 0.05) / (Math.min(y1, y2) + 0.05);

/** The luminance a colour of luminance y takes in the dark theme. */
export const mirrorLuminance = (y) => Math.min(MAX_Y, K / (y + 0.05) - 0.05);

/** The OKLCH colour of hue h and chroma at most c whose luminance is y (chroma lowered until it fits sRGB). */
export function withLuminance(y, c, h) {
  let lo = 0;
  let hi = 1;
  let colour = { l: 0.5, c, h };
  for (let i = 0; i < 40; i += 1) {
    const l = (lo + hi) / 2;
    let chroma = c;
    while (chroma > 0 && !inGamut(linearRgb({ l, c: chroma, h }))) chroma -= 0.002;
    colour = { l, c: Math.max(0, chroma), h };
    if (luminance(colour) < y) lo = l;
    else hi = l;
  }
  return colour;
}

const format = ({ l, c, h }) => `oklch(${(l * 100).toFixed(1)}% ${c.toFixed(3)} ${h.toFixed(1)})`;

/** Tailwind's light palette, read from the installed tailwindcss. */
export function lightPalette() {
  const require = createRequire(import.meta.url);
  const css = readFileSync(require.resolve('tailwindcss/theme.css'), 'utf8');
  const palette = {};
  for (const hue of HUES) {
    for (const step of STEPS) {
      const m = new RegExp(`--color-${hue}-${step}:\\s*(oklch\\([^)]*\\))`).exec(css);
      if (!m) throw new Error(`tailwindcss/theme.css has no --color-${hue}-${step}`);
      palette[`${hue}-${step}`] = m[1];
    }
  }
  return palette;
}

export function darkPalette(light) {
  const dark = {};
  for (const hue of HUES) {
    STEPS.forEach((step, i) => {
      const own = parseOklch(light[`${hue}-${step}`]);
      const mirrored = parseOklch(light[`${hue}-${STEPS[STEPS.length - 1 - i]}`]);
      dark[`${hue}-${step}`] =
        hue === 'slate' && step === 50
          ? format(withLuminance(PAGE_Y, NEUTRAL_CHROMA, NEUTRAL_HUE))
          : format(withLuminance(mirrorLuminance(luminance(own)), mirrored.c, own.h));
    });
  }
  dark.white = format(withLuminance(CARD_Y, NEUTRAL_CHROMA, NEUTRAL_HUE));
  return dark;
}

const declarations = (palette, indent) =>
  Object.entries(palette)
    .map(([name, value]) => `${indent}--color-${name}: ${value};`)
    .join('\n');

export function stylesheet() {
  const light = lightPalette();
  const dark = darkPalette(light);
  const solid = SOLID.map((cls) => `  .${cls}`).join(',\n');
  return `/*
 * Generated by apps/web/scripts/dark-palette.mjs: do not edit, run it again.
 * The dark theme: the system's when no choice is stored (data-theme absent), or the choice (data-theme on <html>,
 * set by public/theme.js before the first paint). Screens only: printing stays light.
 */
@media screen and (prefers-color-scheme: dark) {
  :root:not([data-theme='light']) {
    color-scheme: dark;
${declarations(dark, '    ')}
  }
}
@media screen {
  :root[data-theme='dark'] {
    color-scheme: dark;
${declarations(dark, '    ')}
  }
  /* Solid surfaces and what is on them look as in the light theme (the red alert band stays red). */
  :root:not([data-theme='light']) :is(
${solid}
  ) {
${declarations({ ...light, white: '#fff' }, '    ')}
  }
}
`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const target = fileURLToPath(new URL('../src/dark-theme.css', import.meta.url));
  // As the repository's formatter writes it, so that format:check and --check agree.
  const { format: prettier, resolveConfig } = await import('prettier');
  const css = await prettier(stylesheet(), { ...(await resolveConfig(target)), filepath: target });
  if (process.argv.includes('--check')) {
    if (readFileSync(target, 'utf8') !== css) {
      console.error(`${target} is stale: run node apps/web/scripts/dark-palette.mjs`);
      process.exit(1);
    }
  } else writeFileSync(target, css);
}
