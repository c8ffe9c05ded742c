import { clsx } from 'clsx';

interface SpinnerProps {
  /** Read by screen readers; already translated by the caller. */
  label: string;
  className?: string;
  'data-testid'?: string;
}

export function Spinner({ label, className, ...rest }: SpinnerProps) {
  return (
    <div
      role="status"
      aria-label={label}
      className={clsx('flex items-center justify-center p-6', className)}
      {...rest}
    >
      <span
        aria-hidden="true"
        className="size-8 animate-spin rounded-full border-4 border-slate-200 border-t-teal-700"
      />
    </div>
  );
}
