import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { PageHeading } from '../../components/ui/page-heading';
import { Spinner } from '../../components/ui/spinner';
import { paths } from '../../config/paths';
import { WearerResponseTimes } from '../../features/alerts';
import { isMonth, monthOf, MonthlyReport } from '../../features/records';
import { useCan } from '../../lib/use-can';
import { AppLink } from '../../lib/app-path';

/** /devices/{clientId}/{uid}/report?month=YYYY-MM: a wearer's monthly report for staff (records feature). */
export function WearerReportPage() {
  const { t, ready } = useTranslation(['common', 'records', 'alerts', 'live']);
  const { clientId = '', uid = '' } = useParams();
  const [search, setSearch] = useSearchParams();
  const requested = search.get('month');
  const month = isMonth(requested) ? requested : monthOf(new Date());
  const canSeeFigures = useCan('alertFigures:read');
  if (!ready) return <Spinner label={t('common.loading')} />;
  return (
    <section>
      <p className="mb-2 text-sm" data-print="hide">
        <AppLink
          to={paths.device.detail.build({ clientId, uid })}
          className="text-teal-800 hover:underline"
        >
          {t('records:report.backToWearer')}
        </AppLink>
      </p>
      <div data-print="hide">
        <PageHeading>{t('pages.deviceReport')}</PageHeading>
      </div>
      <MonthlyReport
        uid={uid}
        month={month}
        onMonthChange={(next) => setSearch({ month: next }, { replace: true })}
        typeLabel={(type) => t(`alerts:types.${type}`)}
        extra={
          canSeeFigures ? (
            <WearerResponseTimes clientId={clientId} uid={uid} month={month} />
          ) : undefined
        }
      />
    </section>
  );
}
