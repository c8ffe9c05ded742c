import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client';

/** Refusals this page explains in the reader's language; any other shows the server's own message. */
const KNOWN_CODES = ['GROUP_NOT_EMPTY', 'GROUP_NAME_TAKEN'];

/** Why the server refused a group change (announced when it appears). */
export function GroupFailure({ error }: { error: Error | null }) {
  const { t } = useTranslation();
  if (error === null) return null;
  const body = error instanceof ApiError ? error.body : null;
  const code = body?.code ?? '';
  const text = KNOWN_CODES.includes(code)
    ? t(`groups.errors.${code}`)
    : (body?.message ?? t('admins.errors.generic'));
  return (
    <p
      role="alert"
      data-testid="group-failure"
      className="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800"
    >
      {text}
    </p>
  );
}
