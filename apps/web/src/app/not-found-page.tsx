import { useTranslation } from 'react-i18next';
import { buttonClasses } from '../components/ui/button';
import { PageHeading } from '../components/ui/page-heading';
import { AppLink } from '../lib/app-path';
import { useCurrentUser } from '../lib/current-user';
import { homeFor } from './route-guard';

/** An address no page answers: says so, and leads back to the signed-in person's home page. */
export function NotFoundPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  return (
    <section data-testid="not-found">
      <PageHeading>{t('pages.notFound')}</PageHeading>
      <p className="text-sm text-slate-700">{t('notFound.lead')}</p>
      {user !== null && (
        <AppLink
          to={homeFor(user.role)}
          className={buttonClasses('primary', 'mt-4')}
          data-testid="not-found-home"
        >
          {t('notFound.home')}
        </AppLink>
      )}
    </section>
  );
}
