import { type DurationFigures, getResponseTimesCsv, type ResponseTimesRow } from '@wearable/domain';
import { Download } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Button, focusRing } from '../../../components/ui/button';
import { useIsDemo } from '../../../lib/app-path';
import { downloadFile } from '../../../lib/download-file';
import { formatDuration } from '../../../lib/format-duration';
import { useGroups } from '../../../lib/use-groups';
import { useResponseTimes } from '../api/get-response-times';

type T = (key: string, opts?: Record<string, unknown>) => string;

function Figures({ f, t }: { f: DurationFigures; t: T }) {
  return (
    <td className="px-2 py-1 text-right tabular-nums whitespace-nowrap">
      {formatDuration(f.medianSeconds, t)}
      <span className="block text-xs text-slate-600">
        {t('responseTimes.p90', { value: formatDuration(f.p90Seconds, t) })}
      </span>
    </td>
  );
}

/** The figures per alert type (all types first): alerts, and median / p90 to notice, delivery and confirmation. */
export function ResponseTimesTable({ rows, t }: { rows: readonly ResponseTimesRow[]; t: T }) {
  return (
    <table className="w-full text-sm">
      <thead>
        <tr className="border-b border-slate-200 text-left text-xs text-slate-600">
          <th scope="col" className="min-w-32 px-2 py-1">
            {t('responseTimes.type')}
          </th>
          <th scope="col" className="px-2 py-1 text-right">
            {t('responseTimes.alerts')}
          </th>
          <th scope="col" className="px-2 py-1 text-right">
            {t('responseTimes.toNotice')}
          </th>
          <th scope="col" className="px-2 py-1 text-right">
            {t('responseTimes.toDelivery')}
          </th>
          <th scope="col" className="px-2 py-1 text-right">
            {t('responseTimes.toConfirm')}
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr
            key={r.type ?? 'all'}
            className="border-b border-slate-100 last:border-0"
            data-testid="response-times-row"
          >
            <th scope="row" className="min-w-32 px-2 py-1 text-left font-medium text-slate-900">
              {r.type === null ? t('responseTimes.allTypes') : t(`types.${r.type}`)}
            </th>
            <td className="px-2 py-1 text-right tabular-nums">{r.alerts}</td>
            <Figures f={r.toNotice} t={t} />
            <Figures f={r.toDelivery} t={t} />
            <Figures f={r.toConfirm} t={t} />
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * /alert-histories: a compact panel of response times (median and 90th percentile from raised to the first
 * notice, to delivery, to confirmation) per alert type over the last 12 months or one month, with its CSV.
 */
export function ResponseTimesPanel({ clientId }: { clientId: string }) {
  const { t: translate, i18n } = useTranslation('alerts');
  const t = translate as unknown as T;
  const demo = useIsDemo();
  const [month, setMonth] = useState<string>('');
  // '' = the whole organisation (or, for a group manager, all of their groups: the server scopes it).
  const [groupId, setGroupId] = useState<string>('');
  const monthId = useId();
  const groupSelectId = useId();
  const groups = useGroups(clientId).data ?? [];
  const params = groupId === '' ? { clientId } : { clientId, groupId };
  const query = useResponseTimes(params);
  if (query.isPending || query.isError) return null;
  const data = query.data;
  const months = [...new Set(data.rows.flatMap((r) => (r.month ? [r.month] : [])))].reverse();
  const chosen = month === '' ? null : month;
  const rows: ResponseTimesRow[] = data.rows.filter(
    (r) => r.month === chosen && (r.type === null || r.alerts > 0),
  );
  const download = async () => {
    const lng = i18n.resolvedLanguage === 'en' ? 'en' : 'ja';
    const result = await downloadFile(
      getResponseTimesCsv,
      { query: { ...params, lng } },
      demo,
      'alerts.csv',
    );
    if (!result.ok) toast.error(t('csvFailed'));
  };
  return (
    <section
      aria-labelledby="response-times-title"
      data-testid="response-times"
      className="mb-4 rounded-md border border-slate-200 bg-white p-3"
    >
      <div className="mb-2 flex flex-wrap items-end justify-between gap-2">
        <div>
          <h2 id="response-times-title" className="text-base font-semibold text-slate-900">
            {t('responseTimes.title')}
          </h2>
          <p className="text-xs text-slate-600">
            {t('responseTimes.description', { from: data.from, to: data.to })}
          </p>
        </div>
        <div className="flex flex-wrap items-end gap-2">
          {groups.length > 0 && (
            <label htmlFor={groupSelectId} className="flex flex-col text-xs text-slate-700">
              {t('responseTimes.group')}
              <select
                id={groupSelectId}
                data-testid="response-times-group"
                className={`min-h-11 max-w-full rounded-md border border-slate-300 px-2 text-sm ${focusRing}`}
                value={groupId}
                onChange={(e) => setGroupId(e.target.value)}
              >
                <option value="">{t('responseTimes.allGroups')}</option>
                {groups.map((g) => (
                  <option key={g.id} value={g.id}>
                    {g.name}
                  </option>
                ))}
              </select>
            </label>
          )}
          <label htmlFor={monthId} className="flex flex-col text-xs text-slate-700">
            {t('responseTimes.month')}
            <select
              id={monthId}
              className={`min-h-11 rounded-md border border-slate-300 px-2 text-sm ${focusRing}`}
              value={month}
              onChange={(e) => setMonth(e.target.value)}
            >
              <option value="">{t('responseTimes.allMonths')}</option>
              {months.map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
          </label>
          <Button
            variant="outline"
            data-testid="response-times-csv"
            onClick={() => void download()}
          >
            <Download aria-hidden="true" className="size-4" />
            {t('responseTimes.csv')}
          </Button>
        </div>
      </div>
      {/* Focusable and named: a keyboard user can scroll it where the figures are wider than a phone. */}
      <div
        tabIndex={0}
        role="region"
        aria-labelledby="response-times-title"
        className={`relative overflow-x-auto ${focusRing}`}
      >
        <ResponseTimesTable rows={rows} t={t} />
      </div>
    </section>
  );
}
