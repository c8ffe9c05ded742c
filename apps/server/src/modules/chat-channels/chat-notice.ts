/**
 * One notice as every chat adapter receives it: the text the SMS would carry (who, what, where:
 * alert-notice-text.ts, or a grouped message), a link to the alert in the console, and the alert a
 * 確認 button confirms (a single alert's notice; a grouped message or a test has none).
 */
export interface ChatNotice {
  title: string;
  text: string;
  link: string | null;
  confirmAlertId: string | null;
}

/** The buttons' labels (the notices are Japanese, as the SMS are). */
export const CHAT_LABELS = { confirm: '確認', details: '詳細' } as const;

/** What a button press carries: the alert it confirms. */
export const CONFIRM_PREFIX = 'confirm:';
export const confirmValue = (alertId: string) => `${CONFIRM_PREFIX}${alertId}`;
export const confirmedAlertOf = (value: string | undefined): string | null =>
  value?.startsWith(CONFIRM_PREFIX) ? value.slice(CONFIRM_PREFIX.length) || null : null;
