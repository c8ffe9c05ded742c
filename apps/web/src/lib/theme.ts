import { useCallback, useSyncExternalStore } from 'react';
import { getStoredTheme, storeTheme } from './storage';
import { useMediaQuery } from './use-media-query';

/** What a browser may choose: follow the system's light or dark, or one of them always. */
export const THEME_CHOICES = ['system', 'light', 'dark'] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];
export type Theme = Exclude<ThemeChoice, 'system'>;

export const DARK_QUERY = '(prefers-color-scheme: dark)';

export const isThemeChoice = (value: string | null | undefined): value is ThemeChoice =>
  THEME_CHOICES.some((choice) => choice === value);

/** The stored choice; nothing stored, or anything else, follows the system. */
export const parseThemeChoice = (stored: string | null): ThemeChoice =>
  isThemeChoice(stored) ? stored : 'system';

/** The theme on screen for a choice and the system's preference. */
export const resolveTheme = (choice: ThemeChoice, systemDark: boolean): Theme =>
  choice === 'system' ? (systemDark ? 'dark' : 'light') : choice;

/**
 * <html data-theme> as dark-theme.css reads it: absent follows the system. public/theme.js does the same
 * before the first paint, from the same storage key.
 */
export function applyThemeChoice(choice: ThemeChoice, root: HTMLElement): void {
  if (choice === 'system') root.removeAttribute('data-theme');
  else root.setAttribute('data-theme', choice);
}

const listeners = new Set<() => void>();

/** Stores and applies a choice for this browser. */
export function chooseTheme(choice: ThemeChoice): void {
  storeTheme(choice === 'system' ? null : choice);
  applyThemeChoice(choice, document.documentElement);
  listeners.forEach((notify) => notify());
}

function subscribe(onChange: () => void): () => void {
  listeners.add(onChange);
  // Another tab's choice applies here too.
  const onStorage = () => {
    applyThemeChoice(parseThemeChoice(getStoredTheme()), document.documentElement);
    onChange();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(onChange);
    window.removeEventListener('storage', onStorage);
  };
}

const currentChoice = (): ThemeChoice => parseThemeChoice(getStoredTheme());

/** This browser's choice, the theme on screen, and a setter. */
export function useTheme(): {
  choice: ThemeChoice;
  theme: Theme;
  choose: (c: ThemeChoice) => void;
} {
  const choice = useSyncExternalStore(subscribe, currentChoice, currentChoice);
  // Without matchMedia (tests) the hook answers true: read that as no dark preference known.
  const systemDark = useMediaQuery(DARK_QUERY) && typeof window.matchMedia === 'function';
  const choose = useCallback((c: ThemeChoice) => chooseTheme(c), []);
  return { choice, theme: resolveTheme(choice, systemDark), choose };
}
