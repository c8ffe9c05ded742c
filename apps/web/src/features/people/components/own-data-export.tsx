import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../../lib/current-user';
import { useCan } from '../../../lib/use-can';
import { ExportPersonButton } from './people-dialogs';

/**
 * /user/info for a person who is themself a wearer (PERSONAL_SELF): everything the console holds about them as a
 * ZIP (APPI disclosure, docs/privacy.md). Staff export a wearer's file from /members instead.
 */
export function OwnDataExport() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const organizationId = user?.mediromOrganizationId ?? '';
  const own = useCan('person:export', { organizationId, wearerId: user?.uid ?? '' });
  const others = useCan('person:exportOthers', { organizationId });
  if (user === null || !own || others) return null;
  return (
    <section
      aria-labelledby="own-data-heading"
      data-testid="own-data"
      className="mt-6 rounded-lg border border-slate-200 bg-white p-4"
    >
      <h2 id="own-data-heading" className="text-base font-semibold text-slate-900">
        {t('people.ownData.title')}
      </h2>
      <p className="mt-1 mb-3 text-sm text-slate-600">{t('people.ownData.lead')}</p>
      <ExportPersonButton
        wearer={{ uid: user.uid, name: user.name }}
        label={t('people.ownData.button')}
      />
    </section>
  );
}
