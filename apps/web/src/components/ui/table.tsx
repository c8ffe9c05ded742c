import { clsx } from 'clsx';
import type { HTMLAttributes, TdHTMLAttributes, ThHTMLAttributes } from 'react';

/** A plain data table that scrolls sideways on a phone instead of squeezing. */
export function Table({ className, ...rest }: HTMLAttributes<HTMLTableElement>) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
      <table className={clsx('w-full border-collapse text-left text-sm', className)} {...rest} />
    </div>
  );
}

export function Th({ className, ...rest }: ThHTMLAttributes<HTMLTableCellElement>) {
  return (
    <th
      scope="col"
      className={clsx('border-b border-slate-200 bg-slate-50 px-4 py-2 font-medium whitespace-nowrap text-slate-600', className)}
      {...rest}
    />
  );
}

export function Td({ className, ...rest }: TdHTMLAttributes<HTMLTableCellElement>) {
  return <td className={clsx('border-b border-slate-100 px-4 py-2 whitespace-nowrap text-slate-800', className)} {...rest} />;
}
