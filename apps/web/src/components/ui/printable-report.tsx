import type { ReactNode } from 'react';
import { Button } from './button';

/**
 * The printable part of a report page (A4, see src/print.css): printing shows only this, without the console around
 * it. `printHeading` appears on paper only (the product and who printed when, say); controls outside this part, or
 * marked data-print="hide", are not printed. Keep a block together on paper with data-print="keep"; start a new sheet
 * with data-print="page-break".
 */
export function PrintableReport({
  children,
  printHeading,
  label,
  testId,
}: {
  children: ReactNode;
  printHeading?: ReactNode;
  /** Names the report for screen readers (usually the heading's id is better: pass labelledBy via children). */
  label?: string;
  testId?: string;
}) {
  return (
    <article
      data-print-report=""
      aria-label={label}
      data-testid={testId}
      className="grid grid-cols-[minmax(0,1fr)] gap-6"
    >
      {printHeading !== undefined && (
        <div className="hidden text-xs text-slate-600 print:block">{printHeading}</div>
      )}
      {children}
    </article>
  );
}

/** Opens the browser's print dialog (on paper: the PrintableReport part of the page). */
export function PrintButton({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <Button variant="outline" onClick={() => window.print()} data-testid={testId} data-print="hide">
      {children}
    </Button>
  );
}
