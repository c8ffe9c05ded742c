import { clsx } from 'clsx';
import type { HTMLAttributes, TdHTMLAttributes, ThHTMLAttributes } from 'react';
import { focusRing } from './button';

interface TableProps extends HTMLAttributes<HTMLTableElement> {
  /** Names the scrolling region for screen readers (usually the caption's text). */
  label?: string;
}

/**
 * A plain data table that scrolls sideways inside its own box instead of squeezing. The box is `relative` so the
 * absolutely positioned screen-reader-only texts inside stay in it (otherwise they widen the whole page), and
 * focusable so a keyboard user can scroll it.
 */
export function Table({ className, label, ...rest }: TableProps) {
  return (
    <div
      tabIndex={0}
      role={label === undefined ? undefined : 'region'}
      aria-label={label}
      className={clsx(
        'relative overflow-x-auto rounded-lg border border-slate-200 bg-white',
        focusRing,
      )}
    >
      <table className={clsx('w-full border-collapse text-left text-sm', className)} {...rest} />
    </div>
  );
}

/** A cell that stays put at the start while the table scrolls sideways (the person's name: whose row this is). */
const PINNED = 'sticky left-0 z-[1] shadow-[1px_0_0_0_var(--color-slate-200)]';

interface CellOptions {
  pinned?: boolean;
}

export function Th({
  className,
  pinned = false,
  ...rest
}: ThHTMLAttributes<HTMLTableCellElement> & CellOptions) {
  return (
    <th
      scope="col"
      className={clsx(
        'border-b border-slate-200 bg-slate-50 px-4 py-2 font-medium whitespace-nowrap text-slate-600',
        pinned && PINNED,
        className,
      )}
      {...rest}
    />
  );
}

export function Td({
  className,
  pinned = false,
  ...rest
}: TdHTMLAttributes<HTMLTableCellElement> & CellOptions) {
  return (
    <td
      className={clsx(
        'border-b border-slate-100 px-4 py-2 whitespace-nowrap text-slate-800',
        pinned && `${PINNED} bg-white`,
        className,
      )}
      {...rest}
    />
  );
}
