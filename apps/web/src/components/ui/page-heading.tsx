import type { ReactNode } from 'react';

/** The page's one <h1>; e2e tests find it by its test id. */
export function PageHeading({ children, actions }: { children: ReactNode; actions?: ReactNode }) {
  return (
    <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
      <h1 data-testid="page-heading" className="text-xl font-semibold text-slate-900">
        {children}
      </h1>
      {actions}
    </div>
  );
}
