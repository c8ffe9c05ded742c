import { clsx } from 'clsx';
import type { ReactNode } from 'react';
import { focusRing } from '../../../components/ui/button';

export const inputClass = (invalid: boolean, extra?: string) =>
  clsx(
    'min-h-11 rounded-md border bg-white px-3 text-sm text-slate-900 disabled:bg-slate-100 disabled:text-slate-500',
    invalid ? 'border-red-600' : 'border-slate-300',
    focusRing,
    extra,
  );

interface ControlProps {
  id: string;
  'aria-invalid': boolean;
  'aria-describedby': string | undefined;
}

/** A labelled control with its help and its error, both read out with it. */
export function FormField({
  id,
  label,
  help,
  error,
  children,
}: {
  id: string;
  label: string;
  help?: string;
  error?: string | undefined;
  children: (props: ControlProps) => ReactNode;
}) {
  const described = [help ? `${id}-help` : '', error ? `${id}-error` : '']
    .filter(Boolean)
    .join(' ');
  return (
    <div className="flex flex-col">
      <label htmlFor={id} className="mb-1 text-sm font-medium text-slate-800">
        {label}
      </label>
      {children({
        id,
        'aria-invalid': error !== undefined,
        'aria-describedby': described || undefined,
      })}
      {help && (
        <p id={`${id}-help`} className="mt-1 text-xs text-slate-600">
          {help}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} data-testid="field-error" className="mt-1 text-xs text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
