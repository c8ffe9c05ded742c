import { clsx } from 'clsx';
import type { ButtonHTMLAttributes } from 'react';

export const BUTTON_VARIANTS = [
  'default',
  'destructive',
  'ghost',
  'link',
  'modal',
  'outline',
  'primary',
  'secondary',
] as const;
export type ButtonVariant = (typeof BUTTON_VARIANTS)[number];

const variantClasses: Record<ButtonVariant, string> = {
  default: 'bg-slate-100 text-slate-900 hover:bg-slate-200',
  destructive: 'bg-red-600 text-white hover:bg-red-700',
  ghost: 'bg-transparent text-slate-700 hover:bg-slate-100',
  link: 'bg-transparent px-0 text-teal-700 underline-offset-4 hover:underline',
  modal: 'w-full bg-teal-700 text-white hover:bg-teal-800 sm:w-auto sm:min-w-32',
  outline: 'border border-slate-300 bg-white text-slate-800 hover:bg-slate-50',
  primary: 'bg-teal-700 text-white hover:bg-teal-800',
  secondary: 'bg-slate-700 text-white hover:bg-slate-800',
};

/** Shared focus ring: every control shows where the keyboard is. */
export const focusRing =
  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-teal-600';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
}

/** A button's look, also for a link that acts as one (a full page load, say). */
export const buttonClasses = (variant: ButtonVariant = 'default', className?: string) =>
  clsx(
    'inline-flex min-h-11 items-center justify-center gap-2 rounded-md px-4 text-sm font-medium transition-colors',
    'disabled:cursor-not-allowed disabled:opacity-50',
    focusRing,
    variantClasses[variant],
    className,
  );

export function Button({ variant = 'default', className, type = 'button', ...rest }: ButtonProps) {
  return <button type={type} className={buttonClasses(variant, className)} {...rest} />;
}
