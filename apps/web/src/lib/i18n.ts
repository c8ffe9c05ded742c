import i18next, { type BackendModule, type i18n as I18n } from 'i18next';
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

/**
 * Locale files from /locales/<lng>/<ns>.json with fetch. What i18next-http-backend did for us, without its
 * XMLHttpRequest fallback and write path, which the login page would load for nothing (issue 20). As it did:
 * a server error or a network failure is retried by i18next, a 4xx or a file that is not JSON is not.
 */
export const localeFiles: BackendModule = {
  type: 'backend',
  callbackApi: true,
  init: () => undefined,
  read(language, namespace, callback) {
    const url = `/locales/${encodeURIComponent(language)}/${encodeURIComponent(namespace)}.json`;
    fetch(url).then(
      async (response) => {
        if (!response.ok) {
          callback(
            `failed loading ${url}; status code: ${response.status}`,
            response.status >= 500,
          );
          return;
        }
        try {
          callback(null, (await response.json()) as Record<string, unknown>);
        } catch {
          callback(`failed parsing ${url} to json`, false);
        }
      },
      (error: unknown) => callback(`failed loading ${url}: ${String(error)}`, true),
    );
  },
};

/** Browser set-up: locale files from /locales/<lng>/<ns>.json, loaded on demand. */
export async function initI18n(): Promise<I18n> {
  const lng = detectLanguage(window.location.search, getStoredLanguage());
  followLanguage(i18next);
  await i18next
    .use(localeFiles)
    .use(initReactI18next)
    .init({
      lng,
      resources: BOOT_RESOURCES,
      partialBundledLanguages: true,
      fallbackLng: DEFAULT_LANGUAGE,
      supportedLngs: [...LANGUAGES],
      ns: [...NAMESPACES],
      defaultNS: 'common',
      interpolation: { escapeValue: false },
      react: { useSuspense: false },
    });
  document.documentElement.lang = lng;
  storeLanguage(lng);
  dropLanguageParam();
  return i18next;
}
