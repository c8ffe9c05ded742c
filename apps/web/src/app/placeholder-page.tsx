import { useTranslation } from 'react-i18next';
import { PageHeading } from '../components/ui/page-heading';

/** A registered route whose content comes with a later issue: its translated heading only. */
export function PlaceholderPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  return (
    <section>
      <PageHeading>{t(titleKey)}</PageHeading>
      <p className="text-sm text-slate-500">{t('pages.comingSoon')}</p>
    </section>
  );
}
