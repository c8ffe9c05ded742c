import { useTranslation } from 'react-i18next';
import { formatLocalDateTime } from '../../lib/date-format';

/** A point in time as the console writes it: ja `2026/11/22 19:26`, en `22 Nov 2026, 19:26`. */
export function DateTime({ at }: { at: string }) {
  const { i18n } = useTranslation();
  return <time dateTime={at}>{formatLocalDateTime(at, i18n.resolvedLanguage)}</time>;
}
