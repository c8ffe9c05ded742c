import type { Person } from '@wearable/domain';
import { clsx } from 'clsx';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { focusRing } from '../../components/ui/button';
import { PageHeading } from '../../components/ui/page-heading';
import { QueryState } from '../../components/ui/query-state';
import { Spinner } from '../../components/ui/spinner';
import { mayOpen, paths } from '../../config/paths';
import { usePerson } from '../../features/wearer-profile';
import { AppLink, AppNavLink } from '../../lib/app-path';
import { useCurrentUser } from '../../lib/current-user';

/** The wearer's pages, in the order the tabs show them. */
const WEARER_PAGES = [
  { route: paths.device.detail, labelKey: 'wearer:tabs.detail' },
  { route: paths.device.alertHistories, labelKey: 'wearer:tabs.alertHistories' },
  { route: paths.device.alert, labelKey: 'wearer:tabs.alert' },
  { route: paths.device.config, labelKey: 'wearer:tabs.config' },
  { route: paths.device.member, labelKey: 'wearer:tabs.member' },
  { route: paths.device.setting, labelKey: 'wearer:tabs.setting' },
] as const;

/** Links between a wearer's pages (those the reader's role may open); the current one is marked. */
export function WearerTabs({ clientId, uid }: { clientId: string; uid: string }) {
  const { t } = useTranslation(['wearer']);
  const user = useCurrentUser();
  const pages = WEARER_PAGES.filter(({ route }) => user === null || mayOpen(route, user.role));
  return (
    <nav
      aria-label={t('wearer:tabs.label')}
      className="mb-6 border-b border-slate-200"
      data-testid="wearer-tabs"
    >
      <ul className="-mb-px flex flex-wrap gap-x-1">
        {pages.map(({ route, labelKey }) => (
          <li key={route.path}>
            <AppNavLink
              end
              to={route.build({ clientId, uid })}
              className={({ isActive }) =>
                clsx(
                  'flex min-h-11 items-center border-b-2 px-3 text-sm font-medium',
                  focusRing,
                  isActive
                    ? 'border-teal-700 text-teal-800'
                    : 'border-transparent text-slate-700 hover:text-slate-900',
                )
              }
            >
              {t(labelKey)}
            </AppNavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * The frame of a wearer's sub-page: back to the list, the page's heading with whose page it is, the tabs,
 * then the page's content once GET /v2/user/{uid} has said who the wearer is (404: not one the reader reaches).
 */
export function WearerSubpage({
  titleKey,
  children,
  namespaces = [],
}: {
  titleKey: string;
  children: (wearer: Person, ids: { clientId: string; uid: string }) => ReactNode;
  /** Locale namespaces the content needs, waited for here so no key shows untranslated. */
  namespaces?: readonly string[];
}) {
  const { t, ready } = useTranslation(['common', 'wearer', ...namespaces]);
  const { clientId = '', uid = '' } = useParams();
  const person = usePerson(uid);
  if (!ready) return <Spinner label={t('common:common.loading')} />;
  const wearer = person.data;
  return (
    <section>
      <p className="mb-2 text-sm">
        <AppLink
          to={paths.devices.list.build()}
          className={`text-teal-800 hover:underline ${focusRing}`}
        >
          {t('wearer:backToList')}
        </AppLink>
      </p>
      <PageHeading>
        {wearer ? t('wearer:heading', { page: t(titleKey), name: wearer.name }) : t(titleKey)}
      </PageHeading>
      {wearer && (
        <p className="-mt-4 mb-4 text-sm text-slate-600" data-testid="wearer-group">
          {t('wearer:groupLine', { group: wearer.groupName ?? t('wearer:common.noGroup') })}
        </p>
      )}
      <WearerTabs clientId={clientId} uid={uid} />
      <QueryState
        isPending={person.isPending}
        isError={person.isError}
        isEmpty={false}
        labels={{
          loading: t('common:common.loading'),
          error: t('wearer:notFound'),
          empty: '',
          retry: t('common:common.retry'),
        }}
        onRetry={() => void person.refetch()}
      >
        {wearer && children(wearer, { clientId: wearer.clientId ?? clientId, uid })}
      </QueryState>
    </section>
  );
}
