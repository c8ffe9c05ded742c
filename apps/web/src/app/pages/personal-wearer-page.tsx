import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeading } from '../../components/ui/page-heading';
import { Spinner } from '../../components/ui/spinner';
import { mayOpen, paths } from '../../config/paths';
import { AppLink } from '../../lib/app-path';
import { useCurrentUser } from '../../lib/current-user';
import { type PersonalWearer, usePersonalWearer } from '../../lib/personal-wearer';

interface PersonalWearerPageProps {
  title: string;
  /** The line under the heading that names whose page this is. */
  wearerLine: (wearer: PersonalWearer) => string;
  className?: string;
  children: (wearer: PersonalWearer) => ReactNode;
}

/**
 * The frame of every personal page: heading, a way back to /select-device for PERSONAL (who
 * may watch several wearers), whose page it is, or a note when no wearer is chosen.
 */
export function PersonalWearerPage({
  title,
  wearerLine,
  className,
  children,
}: PersonalWearerPageProps) {
  const { t, ready } = useTranslation(['records', 'common']);
  const user = useCurrentUser();
  const wearer = usePersonalWearer();
  if (!ready) return <Spinner label={t('common:common.loading')} />;
  return (
    <section className={className}>
      <PageHeading
        actions={
          user !== null &&
          mayOpen(paths.selectDevice, user.role) && (
            <AppLink
              to={paths.selectDevice.build()}
              data-testid="switch-wearer"
              className="text-sm text-teal-800 hover:underline"
            >
              {t('switchWearer')}
            </AppLink>
          )
        }
      >
        {title}
      </PageHeading>
      {wearer === null ? (
        <p
          data-testid="page-empty"
          className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-500"
        >
          {t('noWearer')}
        </p>
      ) : (
        <>
          <p data-testid="selected-device" className="-mt-4 mb-4 text-sm text-slate-600">
            {wearerLine(wearer)}
          </p>
          {children(wearer)}
        </>
      )}
    </section>
  );
}
