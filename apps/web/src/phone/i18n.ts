import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en, ja } from './messages';

export type PhoneLanguage = 'ja' | 'en';
const KEY = 'phone.language';

/** `?lng=` wins, then the phone's remembered choice, then Japanese. */
export function detectPhoneLanguage(search: string, stored: string | null): PhoneLanguage {
  const fromUrl = new URLSearchParams(search).get('lng');
  if (fromUrl === 'ja' || fromUrl === 'en') return fromUrl;
  return stored === 'en' ? 'en' : 'ja';
}

export async function initPhoneI18n(): Promise<void> {
  const lng = detectPhoneLanguage(window.location.search, localStorage.getItem(KEY));
  i18next.on('languageChanged', (language) => {
    document.documentElement.lang = language;
    localStorage.setItem(KEY, language);
  });
  await i18next.use(initReactI18next).init({
    lng,
    fallbackLng: 'ja',
    resources: { ja: { translation: ja }, en: { translation: en } },
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  document.documentElement.lang = lng;
}
