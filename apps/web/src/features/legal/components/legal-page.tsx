import { useTranslation } from 'react-i18next';
import { LanguageSwitch } from '../../../components/ui/language-switch';
import { usePageHeading } from '../../../components/ui/page-heading';

/** Terms of service and privacy policy: static, translated, outside the guard. */
export function LegalPage({ kind }: { kind: 'terms' | 'privacy' }) {
  const { t } = useTranslation();
  const paragraphs = t(`legal.${kind}.body`, { returnObjects: true });
  const heading = usePageHeading<HTMLHeadingElement>();
  return (
    <main className="mx-auto max-w-3xl px-4 py-10">
      <div className="flex justify-end">
        <LanguageSwitch />
      </div>
      <h1
        ref={heading}
        tabIndex={-1}
        data-testid="page-heading"
        className="focus:outline-none mt-4 text-2xl font-semibold text-slate-900"
      >
        {t(`legal.${kind}.title`)}
      </h1>
      <div className="mt-6 space-y-4 text-sm leading-7 text-slate-700">
        {(Array.isArray(paragraphs) ? paragraphs : []).map((paragraph, index) => (
          <p key={index}>{String(paragraph)}</p>
        ))}
      </div>
    </main>
  );
}

export const TermsPage = () => <LegalPage kind="terms" />;
export const PrivacyPage = () => <LegalPage kind="privacy" />;
