import { clsx } from 'clsx';
import { Dialog as RadixDialog } from 'radix-ui';
import { useId, type ReactNode } from 'react';

interface DialogProps {
  open: boolean;
  onOpenChange?: (open: boolean) => void;
  title: string;
  description?: string;
  children: ReactNode;
  /** A blocking dialog ignores Escape and clicks outside (terms of use). */
  blocking?: boolean;
  className?: string;
  'data-testid'?: string;
}

/** Accessible modal dialog (focus trap, labelled by its title) on Radix. */
export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  blocking,
  className,
  ...rest
}: DialogProps) {
  const descriptionId = useId();
  const block = (event: Event) => {
    if (blocking) event.preventDefault();
  };
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        {/* A blocking dialog hides the page entirely: nobody reads the wearer list before agreeing to the terms. */}
        <RadixDialog.Overlay
          data-blocking-overlay={blocking ? '' : undefined}
          className={clsx('fixed inset-0 z-40', blocking ? 'bg-slate-800' : 'bg-slate-900/50')}
        />
        <RadixDialog.Content
          onEscapeKeyDown={block}
          onPointerDownOutside={block}
          onInteractOutside={block}
          aria-describedby={description === undefined ? undefined : descriptionId}
          className={clsx(
            'fixed top-1/2 left-1/2 z-50 max-h-[90vh] w-[92vw] max-w-lg -translate-x-1/2 -translate-y-1/2 overflow-y-auto',
            'rounded-lg bg-white p-6 shadow-xl focus:outline-none',
            className,
          )}
          {...rest}
        >
          <RadixDialog.Title className="text-lg font-semibold text-slate-900">
            {title}
          </RadixDialog.Title>
          {description !== undefined && (
            <RadixDialog.Description id={descriptionId} className="mt-2 text-sm text-slate-600">
              {description}
            </RadixDialog.Description>
          )}
          <div className="mt-4">{children}</div>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
