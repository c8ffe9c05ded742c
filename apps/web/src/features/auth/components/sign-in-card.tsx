import type { ReactNode } from 'react';
import { LanguageSwitch } from '../../../components/ui/language-switch';
import { usePageHeading } from '../../../components/ui/page-heading';

/** The centred card of the signed-out pages, with its heading and the language switch. */
export function SignInCard({ title, children }: { title: string; children: ReactNode }) {
  const heading = usePageHeading<HTMLHeadingElement>();
  return (
    <main className="relative flex min-h-screen items-center justify-center bg-slate-50 px-4">
      <LanguageSwitch className="absolute top-4 right-4" />
      <div className="w-full max-w-sm rounded-xl border border-slate-200 bg-white p-8 shadow-sm">
        <h1
          ref={heading}
          tabIndex={-1}
          data-testid="page-heading"
          className="focus:outline-none text-xl font-semibold text-slate-900"
        >
          {title}
        </h1>
        {children}
      </div>
    </main>
  );
}
