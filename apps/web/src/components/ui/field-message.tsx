import { clsx } from 'clsx';
import { useTranslation } from 'react-i18next';
import { focusRing } from './button';

/** A message key of the records namespace and its values, shown next to the field. */
export interface FieldError {
  key: string;
  values?: Record<string, number | string>;
}
export type FieldErrors = Record<string, FieldError>;

export const inputClass = (invalid: boolean, extra?: string) =>
  clsx(
    'min-h-10 rounded-md border bg-white px-3 text-sm text-slate-900 disabled:bg-slate-100 disabled:text-slate-500',
    invalid ? 'border-red-600' : 'border-slate-300',
    focusRing,
    extra,
  );

/** The field's error in words, linked to the input by aria-describedby. */
export function FieldMessage({ id, error }: { id: string; error: FieldError | undefined }) {
  const { t } = useTranslation('records');
  if (error === undefined) return null;
  return (
    <p id={id} data-testid="field-error" className="mt-1 text-xs text-red-700">
      {t(error.key, error.values)}
    </p>
  );
}
