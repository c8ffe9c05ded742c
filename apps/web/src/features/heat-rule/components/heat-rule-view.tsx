import {
  getHeatRuleReportCsv,
  HEAT_PROCEDURE_STEPS,
  heatProcedureBody,
  type HeatProcedureBody,
  type HeatRuleReport,
} from '@wearable/domain';
import { Download } from 'lucide-react';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { toast } from 'sonner';
import { Button, focusRing } from '../../../components/ui/button';
import { PageHeading } from '../../../components/ui/page-heading';
import { PrintableReport, PrintButton } from '../../../components/ui/printable-report';
import { Spinner } from '../../../components/ui/spinner';
import { useIsDemo } from '../../../lib/app-path';
import { downloadFile } from '../../../lib/download-file';
import { useCan } from '../../../lib/use-can';
import { formatDuration } from '../../../lib/format-duration';
import { useHeatProcedure } from '../../../lib/use-heat-procedure';
import { useHeatRuleReport } from '../api/get-heat-rule-report';
import { useSaveHeatProcedure } from '../api/put-heat-procedure';

type T = (key: string, opts?: Record<string, unknown>) => string;
const fieldClass = `w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 ${focusRing}`;
const EMPTY: HeatProcedureBody = {
  stopWork: '',
  coolBody: '',
  medicalCare: '',
  emergencyContacts: '',
  hospital: { name: '', address: '', phone: '' },
};
const TEXTS = ['stopWork', 'coolBody', 'medicalCare', 'emergencyContacts'] as const;

const thisMonth = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`;
};
/** Hours as "10:00-12:00" ranges. */
const hourRanges = (hours: readonly number[]) => {
  const out: string[] = [];
  let start: number | null = null;
  hours.forEach((h, i) => {
    start ??= h;
    if (hours[i + 1] !== h + 1) {
      out.push(`${String(start).padStart(2, '0')}:00-${String(h + 1).padStart(2, '0')}:00`);
      start = null;
    }
  });
  return out.join(' ');
};

function ProcedureForm({
  groupId,
  initial,
  editable,
  t,
}: {
  groupId: string;
  initial: HeatProcedureBody;
  editable: boolean;
  t: T;
}) {
  const [value, setValue] = useState<HeatProcedureBody>(initial);
  const [error, setError] = useState<string | null>(null);
  const save = useSaveHeatProcedure(groupId);
  const ids = {
    stopWork: useId(),
    coolBody: useId(),
    medicalCare: useId(),
    emergencyContacts: useId(),
    name: useId(),
    address: useId(),
    phone: useId(),
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = heatProcedureBody.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      setError(
        t('heatRule.invalid', {
          field: t(`heatRule.fields.${String(issue.path[issue.path.length - 1])}`),
        }),
      );
      return;
    }
    setError(null);
    save.mutate(parsed.data, {
      onSuccess: () => toast.success(t('heatRule.saved'), { id: 'heat-procedure' }),
      onError: (err) => setError(err instanceof Error ? err.message : t('heatRule.saveFailed')),
    });
  };
  const text = (k: (typeof TEXTS)[number]) => (
    <div key={k} className="flex flex-col gap-1">
      <label htmlFor={ids[k]} className="text-sm font-medium text-slate-800">
        {t(`heatRule.fields.${k}`)}
      </label>
      <textarea
        id={ids[k]}
        className={fieldClass}
        rows={3}
        maxLength={1000}
        readOnly={!editable}
        value={value[k]}
        onChange={(e) => setValue({ ...value, [k]: e.target.value })}
      />
    </div>
  );
  const hospital = (k: 'name' | 'address' | 'phone', max: number) => (
    <div className="flex flex-col gap-1">
      <label htmlFor={ids[k]} className="text-sm font-medium text-slate-800">
        {t(`heatRule.fields.${k}`)}
      </label>
      <input
        id={ids[k]}
        className={`min-h-11 ${fieldClass}`}
        maxLength={max}
        readOnly={!editable}
        value={value.hospital[k]}
        type={k === 'phone' ? 'tel' : 'text'}
        onChange={(e) =>
          setValue({ ...value, hospital: { ...value.hospital, [k]: e.target.value } })
        }
      />
    </div>
  );
  return (
    <form className="flex flex-col gap-3" onSubmit={submit} data-testid="heat-procedure-form">
      {TEXTS.map(text)}
      <fieldset className="flex flex-col gap-3 rounded-md border border-slate-200 p-3">
        <legend className="px-1 text-sm font-semibold text-slate-900">
          {t('heatRule.hospital')}
        </legend>
        {hospital('name', 200)}
        {hospital('address', 300)}
        {hospital('phone', 20)}
      </fieldset>
      {error !== null && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      {editable && (
        <div>
          <Button
            variant="primary"
            type="submit"
            disabled={save.isPending}
            data-testid="heat-procedure-save"
          >
            {t('heatRule.save')}
          </Button>
        </div>
      )}
    </form>
  );
}

function Report({
  report,
  siteHeatChanges,
  t,
}: {
  report: HeatRuleReport;
  siteHeatChanges: HeatRuleSlots['siteHeatChanges'];
  t: T;
}) {
  const days = report.days.filter((d) => d.applicableHours.length > 0 || d.heatAlerts > 0);
  const facts = [
    ['applicableHours', report.applicableHours],
    ['applicableDays', report.applicableDays],
    ['heatAlerts', report.summary.heatAlerts],
    ['confirmed', report.summary.confirmed],
    ['median', formatDuration(report.summary.medianSecondsToConfirm, t)],
    ['p90', formatDuration(report.summary.p90SecondsToConfirm, t)],
  ] as const;
  return (
    <PrintableReport
      testId="heat-rule-report"
      printHeading={t('heatRule.printHeading', { group: report.groupName, month: report.month })}
    >
      <h2 className="text-lg font-semibold text-slate-900">
        {t('heatRule.reportTitle', { group: report.groupName, month: report.month })}
      </h2>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 print:grid-cols-3" data-print="keep">
        {facts.map(([k, v]) => (
          <div key={k} className="rounded-lg border border-slate-200 bg-white p-3 print:p-2">
            <dt className="text-xs text-slate-600">{t(`heatRule.facts.${k}`)}</dt>
            <dd className="text-lg font-semibold tabular-nums text-slate-900">{v}</dd>
          </div>
        ))}
      </dl>
      <section data-print="keep">
        <h3 className="mb-1 text-sm font-semibold text-slate-900">{t('heatRule.stepsTitle')}</h3>
        <ul className="grid grid-cols-2 gap-1 text-sm sm:grid-cols-4">
          {HEAT_PROCEDURE_STEPS.map((s) => (
            <li key={s}>
              {t(`heat.steps.${s}`)}:{' '}
              <span className="tabular-nums font-medium">{report.summary.steps[s]}</span>
            </li>
          ))}
        </ul>
      </section>
      <section>
        <h3 className="mb-1 text-sm font-semibold text-slate-900">{t('heatRule.daysTitle')}</h3>
        {days.length === 0 ? (
          <p className="text-sm text-slate-700">{t('heatRule.noDays')}</p>
        ) : (
          <div
            tabIndex={0}
            role="region"
            aria-label={t('heatRule.daysTitle')}
            className={`relative overflow-x-auto ${focusRing}`}
          >
            <table className="w-full text-sm">
              <thead>
                <tr className="border-b text-left text-xs text-slate-600">
                  <th scope="col" className="px-2 py-1">
                    {t('heatRule.cols.date')}
                  </th>
                  <th scope="col" className="px-2 py-1">
                    {t('heatRule.cols.hours')}
                  </th>
                  <th scope="col" className="px-2 py-1 text-right">
                    {t('heatRule.cols.maxWbgt')}
                  </th>
                  <th scope="col" className="px-2 py-1 text-right">
                    {t('heatRule.cols.maxTemperature')}
                  </th>
                  <th scope="col" className="px-2 py-1 text-right">
                    {t('heatRule.cols.alerts')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {days.map((d) => (
                  <tr key={d.date} className="border-b border-slate-100">
                    <th scope="row" className="px-2 py-1 text-left font-normal tabular-nums">
                      {d.date}
                    </th>
                    <td className="px-2 py-1 tabular-nums">{hourRanges(d.applicableHours)}</td>
                    <td className="px-2 py-1 text-right tabular-nums">{d.maxWbgt ?? '—'}</td>
                    <td className="px-2 py-1 text-right tabular-nums">{d.maxTemperature ?? '—'}</td>
                    <td className="px-2 py-1 text-right tabular-nums">{d.heatAlerts}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      {siteHeatChanges(report.siteHeatChanges)}
      {report.procedure !== null && (
        <section data-print="keep">
          <h3 className="mb-1 text-sm font-semibold text-slate-900">
            {t('heatRule.procedureTitle')}
          </h3>
          <ol className="list-decimal pl-5 text-sm">
            {HEAT_PROCEDURE_STEPS.map((s, i) => (
              <li key={s}>
                <span className="font-medium">{t(`heat.steps.${s}`)}</span>:{' '}
                <span className="whitespace-pre-wrap break-words">
                  {report.procedure![TEXTS[i]!]}
                </span>
              </li>
            ))}
          </ol>
          <p className="mt-1 break-words text-sm">
            {t('heatRule.hospital')}: {report.procedure.hospital.name} /{' '}
            {report.procedure.hospital.address} / {report.procedure.hospital.phone}
          </p>
        </section>
      )}
      <section data-print="keep">
        <h3 className="mb-1 text-sm font-semibold text-slate-900">{t('heat.contacts')}</h3>
        {report.contacts.length === 0 ? (
          <p className="text-sm text-slate-700">{t('heat.noContacts')}</p>
        ) : (
          <ol className="list-decimal pl-5 text-sm">
            {report.contacts.map((c, i) => (
              <li key={i} className="break-words">
                {c.name ?? c.phoneNumber}
                {c.name && c.phoneNumber ? ` (${c.phoneNumber})` : ''} ·{' '}
                {t(`heat.channel.${c.channel}`)}
              </li>
            ))}
          </ol>
        )}
      </section>
    </PrintableReport>
  );
}

/** What the page shows of the site-heat area, composed in by the app (features do not import each other). */
export interface HeatRuleSlots {
  /** The group's sites now, above the procedure. */
  siteHeatNow: (site: { clientId: string; groupId: string }) => ReactNode;
  /** The month's site heat level changes, the report's last table. */
  siteHeatChanges: (changes: HeatRuleReport['siteHeatChanges']) => ReactNode;
}

/** /groups/{groupId}/heat-rule: Japan's 2025 heat rule for one site: procedure and hospital, contacts, monthly report. */
export function HeatRuleView({ siteHeatNow, siteHeatChanges }: HeatRuleSlots) {
  const { groupId = '' } = useParams();
  const { t: translate, i18n, ready } = useTranslation(['alerts', 'common']);
  const t = translate as unknown as T;
  const demo = useIsDemo();
  const [month, setMonth] = useState(thisMonth);
  const monthId = useId();
  const procedure = useHeatProcedure(groupId);
  const report = useHeatRuleReport(groupId, month);
  const editable = useCan(
    'heatProcedure:update',
    procedure.data ? { organizationId: procedure.data.clientId, groupIds: [groupId] } : undefined,
  );
  if (!ready || procedure.isPending) return <Spinner label={t('common:common.loading')} />;
  if (procedure.isError) return <p role="alert">{t('common:common.loadFailed')}</p>;
  const download = async () => {
    const lng = i18n.resolvedLanguage === 'en' ? 'en' : 'ja';
    const result = await downloadFile(
      getHeatRuleReportCsv,
      { params: { groupId }, query: { month, lng } },
      demo,
      'alerts.csv',
    );
    if (!result.ok) toast.error(t('csvFailed'));
  };
  return (
    <section className="flex max-w-4xl flex-col gap-6">
      <PageHeading>{t('heatRule.title', { group: procedure.data.groupName })}</PageHeading>
      {siteHeatNow({ clientId: procedure.data.clientId, groupId })}
      <section aria-labelledby="heat-procedure-heading" data-print="hide">
        <h2 id="heat-procedure-heading" className="mb-2 text-base font-semibold text-slate-900">
          {t('heatRule.procedureTitle')}
        </h2>
        <p className="mb-3 text-sm text-slate-700">{t('heatRule.intro')}</p>
        <ProcedureForm
          key={groupId}
          groupId={groupId}
          initial={procedure.data.procedure ?? EMPTY}
          editable={editable}
          t={t}
        />
      </section>
      <section aria-labelledby="heat-report-heading">
        <h2
          id="heat-report-heading"
          className="mb-2 text-base font-semibold text-slate-900"
          data-print="hide"
        >
          {t('heatRule.reportHeading')}
        </h2>
        <div className="mb-3 flex flex-wrap items-end gap-2" data-print="hide">
          <label htmlFor={monthId} className="flex flex-col text-xs text-slate-700">
            {t('heatRule.month')}
            <input
              id={monthId}
              type="month"
              className={`min-h-11 rounded-md border border-slate-300 px-2 text-sm ${focusRing}`}
              value={month}
              onChange={(e) => {
                if (/^\d{4}-\d{2}$/.test(e.target.value)) setMonth(e.target.value);
              }}
            />
          </label>
          <Button variant="outline" onClick={() => void download()} data-testid="heat-rule-csv">
            <Download aria-hidden="true" className="size-4" />
            {t('heatRule.csv')}
          </Button>
          <PrintButton testId="heat-rule-print">{t('heatRule.print')}</PrintButton>
        </div>
        {report.isPending ? (
          <Spinner label={t('common:common.loading')} />
        ) : report.isError ? (
          <p role="alert">{t('common:common.loadFailed')}</p>
        ) : (
          <Report report={report.data} siteHeatChanges={siteHeatChanges} t={t} />
        )}
      </section>
    </section>
  );
}
