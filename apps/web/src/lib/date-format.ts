import { formatDateTime, type DateLanguage } from '@wearable/domain';

/** The domain's language of dates for an i18next language (anything not English reads as Japanese, the default). */
export const dateLanguage = (lng: string | undefined): DateLanguage =>
  lng?.startsWith('en') ? 'en' : 'ja';

/** Date and 24-hour time in the reader's zone, in the console's one format per language. */
export const formatLocalDateTime = (at: Date | string, lng: string | undefined): string =>
  formatDateTime(at, dateLanguage(lng));
