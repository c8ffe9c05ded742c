import i18next, { type i18n as I18n } from 'i18next';
import HttpBackend from 'i18next-http-backend';
import { initReactI18next } from 'react-i18next';
import { getStoredLanguage, storeLanguage } from './storage';

export const LANGUAGES = ['ja', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'ja';
export const NAMESPACES = ['common'] as const;

/** Bundled so the start-up spinner is labelled before any locale file has arrived. */
export const BOOT_RESOURCES = {
  ja: { boot: { loading: '読み込み中…' } },
  en: { boot: { loading: 'Loading…' } },
} as const;

export const isLanguage = (value: string | null | undefined): value is Language =>
  value === 'ja' || value === 'en';

/** `?lng=` wins, then the remembered choice, then Japanese. */
export function detectLanguage(search: string, stored: string | null): Language {
  const fromUrl = new URLSearchParams(search).get('lng');
  if (isLanguage(fromUrl)) return fromUrl;
  return isLanguage(stored) ? stored : DEFAULT_LANGUAGE;
}

/** Keeps <html lang> and the stored choice in step with i18next. */
function followLanguage(instance: I18n): void {
  instance.on('languageChanged', (lng) => {
    document.documentElement.lang = lng;
    if (isLanguage(lng)) storeLanguage(lng);
  });
}

/** Once remembered, ?lng= would only fight a later switch on reload. */
function dropLanguageParam(): void {
  const url = new URL(window.location.href);
  if (!url.searchParams.has('lng')) return;
  url.searchParams.delete('lng');
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
}

/** Browser set-up: locale files from /locales/<lng>/<ns>.json, loaded on demand. */
export async function initI18n(): Promise<I18n> {
  const lng = detectLanguage(window.location.search, getStoredLanguage());
  followLanguage(i18next);
  await i18next
    .use(HttpBackend)
    .use(initReactI18next)
    .init({
      lng,
      resources: BOOT_RESOURCES,
      partialBundledLanguages: true,
      fallbackLng: DEFAULT_LANGUAGE,
      supportedLngs: [...LANGUAGES],
      ns: [...NAMESPACES],
      defaultNS: 'common',
      backend: { loadPath: '/locales/{{lng}}/{{ns}}.json' },
      interpolation: { escapeValue: false },
      react: { useSuspense: false },
    });
  document.documentElement.lang = lng;
  storeLanguage(lng);
  dropLanguageParam();
  return i18next;
}
