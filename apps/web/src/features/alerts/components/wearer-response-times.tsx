import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { focusRing } from '../../../components/ui/button';
import { useResponseTimes } from '../api/get-response-times';
import { ResponseTimesTable } from './response-times-panel';

type T = (key: string, opts?: Record<string, unknown>) => string;

/**
 * One wearer's response times in one month, for their monthly report (staff who may read the figures): per alert
 * type, median and p90 from raised to the first notice, to delivery and to confirmation. Prints with the report.
 */
export function WearerResponseTimes({
  clientId,
  uid,
  month,
}: {
  clientId: string;
  uid: string;
  month: string;
}) {
  const { t: translate } = useTranslation('alerts');
  const t = translate as unknown as T;
  const titleId = useId();
  const query = useResponseTimes({ clientId, uid, from: month, to: month });
  if (query.isPending || query.isError) return null;
  const rows = query.data.rows.filter((r) => r.month === null && (r.type === null || r.alerts > 0));
  const none = rows.every((r) => r.alerts === 0);
  return (
    <section aria-labelledby={titleId} data-testid="report-response-times" data-print="keep">
      <h3 id={titleId} className="mb-2 text-base font-semibold text-slate-900">
        {t('responseTimes.title')}
      </h3>
      {none ? (
        <p className="text-sm text-slate-600">{t('responseTimes.none')}</p>
      ) : (
        <div
          tabIndex={0}
          role="region"
          aria-labelledby={titleId}
          className={`relative overflow-x-auto ${focusRing}`}
        >
          <ResponseTimesTable rows={rows} t={t} />
        </div>
      )}
    </section>
  );
}
