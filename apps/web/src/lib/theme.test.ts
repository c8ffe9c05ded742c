import { afterEach, describe, expect, it } from 'vitest';
import { clearStorage, STORAGE_KEYS, storeTokens } from './storage';
import { applyThemeChoice, chooseTheme, parseThemeChoice, resolveTheme } from './theme';
import bootScript from '../../public/theme.js?raw';
import {
  contrast,
  darkPalette,
  lightPalette,
  luminance,
  parseOklch,
  type Palette,
} from '../../scripts/dark-palette.mjs';

const root = document.documentElement;
/** public/theme.js as index.html runs it, before the app. */
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- the script runs as the page runs it, as text.
const runBootScript = () => (new Function(bootScript) as () => void)();

afterEach(() => {
  localStorage.clear();
  root.removeAttribute('data-theme');
});

describe('the theme choice', () => {
  it('reads a stored light or dark, and follows the system for anything else', () => {
    expect(parseThemeChoice('light')).toBe('light');
    expect(parseThemeChoice('dark')).toBe('dark');
    expect(parseThemeChoice(null)).toBe('system');
    expect(parseThemeChoice('sepia')).toBe('system');
  });

  it('puts a choice above the system preference', () => {
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
    expect(resolveTheme('light', true)).toBe('light');
    expect(resolveTheme('dark', false)).toBe('dark');
  });

  it('marks <html> with a choice, and nothing for the system', () => {
    applyThemeChoice('dark', root);
    expect(root.dataset.theme).toBe('dark');
    applyThemeChoice('system', root);
    expect(root.hasAttribute('data-theme')).toBe(false);
  });

  it('is stored per browser and applied on the next load by public/theme.js, before the app', () => {
    chooseTheme('dark');
    root.removeAttribute('data-theme');
    runBootScript();
    expect(root.dataset.theme).toBe('dark');
    chooseTheme('system');
    expect(localStorage.getItem(STORAGE_KEYS.theme)).toBeNull();
    runBootScript();
    expect(root.hasAttribute('data-theme')).toBe(false);
  });

  it('is cleared by a logout with the rest of local storage (the specification): the system choice applies again', () => {
    storeTokens(
      {
        accessToken: 'a',
        refreshToken: 'r',
        tokenType: 'Bearer',
        expiresIn: 60,
        refreshExpiresIn: 600,
      },
      1,
    );
    chooseTheme('light');
    clearStorage();
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.theme)).toBeNull();
    expect(document.documentElement.hasAttribute('data-theme')).toBe(false);
  });
});

describe('the dark palette', () => {
  const light = lightPalette();
  const dark = darkPalette(light);
  const y = (palette: Palette, name: string) =>
    name === 'white' && palette === light ? 1 : luminance(parseOklch(palette[name]!));

  // Pairs the console draws (text on background), each at 4.5:1 or more in the light theme.
  const pairs = [
    ['slate-900', 'white'],
    ['slate-600', 'white'],
    ['slate-500', 'white'],
    ['slate-600', 'slate-50'],
    ['slate-700', 'slate-100'],
    ['red-800', 'red-50'],
    ['red-700', 'white'],
    ['teal-800', 'teal-50'],
    ['teal-700', 'white'],
    ['amber-900', 'amber-50'],
    ['amber-950', 'amber-100'],
    ['white', 'amber-900'],
  ] as const;

  it.each(pairs)('keeps %s on %s at 4.5:1 or more', (text, background) => {
    const before = contrast(y(light, text), y(light, background));
    const after = contrast(y(dark, text), y(dark, background));
    expect(before).toBeGreaterThanOrEqual(4.5);
    expect(after).toBeGreaterThanOrEqual(4.5);
  });

  it('turns the scale over: the lightest shades become the darkest', () => {
    expect(y(dark, 'slate-50')).toBeLessThan(y(dark, 'slate-500'));
    expect(y(dark, 'slate-500')).toBeLessThan(y(dark, 'slate-900'));
    expect(y(dark, 'white')).toBeLessThan(0.02);
  });
});
