import { clsx } from 'clsx';
import { focusRing } from '../../../components/ui/button';

export const inputClass = (invalid: boolean, extra?: string) =>
  clsx(
    'min-h-11 rounded-md border bg-white px-3 text-sm text-slate-900 read-only:bg-slate-50 disabled:bg-slate-100 disabled:text-slate-500',
    invalid ? 'border-red-600' : 'border-slate-300',
    focusRing,
    extra,
  );

/** The server's refusal, read out at once. */
export function Refusal({ text, testId }: { text: string | null; testId?: string }) {
  if (text === null) return null;
  return (
    <p
      role="alert"
      data-testid={testId}
      className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800"
    >
      {text}
    </p>
  );
}
