// The islands' buttons: one place for the class strings that were repeated beside BTN_PRIMARY
// (admin-parts, twofa-parts and inline in several islands). `buttonClass` serves links drawn as
// buttons. The strings stay literal in this .tsx file: UnoCSS finds its classes by reading the
// .tsx sources (scripts/build.mjs).
import type { ButtonHTMLAttributes, Ref } from 'react';

export const BUTTON_VARIANTS = {
  primary:
    'rounded bg-blue-800 px-4 py-2 text-base font-medium text-white hover:bg-blue-900 disabled:cursor-not-allowed disabled:bg-slate-400 disabled:text-slate-900',
  secondary:
    'rounded border border-slate-600 bg-white px-4 py-2 text-base text-slate-900 hover:bg-slate-100 disabled:cursor-not-allowed disabled:border-slate-400 disabled:text-slate-700',
  danger:
    'rounded bg-red-800 px-4 py-2 text-base font-medium text-white hover:bg-red-900 disabled:cursor-not-allowed disabled:bg-slate-400 disabled:text-slate-900',
  small:
    'rounded border border-slate-600 bg-white px-3 py-1 text-sm text-slate-900 hover:bg-slate-100 disabled:cursor-not-allowed disabled:border-slate-400 disabled:text-slate-700',
  'small-danger':
    'rounded border border-red-800 bg-white px-3 py-1 text-sm text-red-800 hover:bg-red-50 disabled:cursor-not-allowed disabled:border-slate-400 disabled:text-slate-700',
  link: 'border-0 bg-transparent p-0 text-base text-blue-800 underline disabled:cursor-not-allowed disabled:text-slate-700 disabled:no-underline',
} as const;

export type ButtonVariant = keyof typeof BUTTON_VARIANTS;

/** The classes of a button of `variant`; `block` makes it as wide as its container. */
export function buttonClass(variant: ButtonVariant = 'primary', opts: { block?: boolean; className?: string } = {}): string {
  return [opts.block ? 'w-full' : '', BUTTON_VARIANTS[variant], opts.className ?? ''].filter(Boolean).join(' ');
}

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  block?: boolean;
  buttonRef?: Ref<HTMLButtonElement>;
}

/** A button (type "button" unless told otherwise, so it never submits a form by accident). */
export default function Button({ variant = 'primary', block, className, buttonRef, type = 'button', ...rest }: ButtonProps) {
  return <button ref={buttonRef} type={type} className={buttonClass(variant, { block, className })} {...rest} />;
}
