import type { ReactNode } from 'react';
import { Button } from './button';
import { Spinner } from './spinner';

interface QueryStateProps {
  isPending: boolean;
  isError: boolean;
  isEmpty: boolean;
  labels: { loading: string; error: string; empty: string; retry: string };
  onRetry: () => void;
  /** Under the empty message: the next step and a link to it (a new organisation's empty pages). */
  emptyAction?: ReactNode;
  children: ReactNode;
}

/** The loading, error and empty states every data page shares. */
export function QueryState({
  isPending,
  isError,
  isEmpty,
  labels,
  onRetry,
  emptyAction,
  children,
}: QueryStateProps) {
  if (isPending) return <Spinner label={labels.loading} data-testid="page-loading" />;
  if (isError) {
    return (
      <div
        role="alert"
        data-testid="page-error"
        className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-800"
      >
        <p>{labels.error}</p>
        <Button variant="outline" className="mt-3" onClick={onRetry}>
          {labels.retry}
        </Button>
      </div>
    );
  }
  if (isEmpty) {
    if (emptyAction === undefined || emptyAction === null || emptyAction === false) {
      return (
        <p
          data-testid="page-empty"
          className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-500"
        >
          {labels.empty}
        </p>
      );
    }
    return (
      <div className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm">
        <p data-testid="page-empty" className="text-slate-600">
          {labels.empty}
        </p>
        <div data-testid="page-empty-next" className="mt-2 text-slate-700">
          {emptyAction}
        </div>
      </div>
    );
  }
  return <>{children}</>;
}
