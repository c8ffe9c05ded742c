import {
  type DateLanguage,
  formatDate,
  formatTime,
  getNightRoundCsv,
  ROUND_NOTE_MAX,
  type RoundWearer,
  type RoundState,
} from '@wearable/domain';
import { clsx } from 'clsx';
import { Check, Download } from 'lucide-react';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { toast } from 'sonner';
import { Button, focusRing } from '../../../components/ui/button';
import { PageHeading } from '../../../components/ui/page-heading';
import { PersonName } from '../../../components/ui/person-name';
import { PrintableReport, PrintButton } from '../../../components/ui/printable-report';
import { Spinner } from '../../../components/ui/spinner';
import { useIsDemo } from '../../../lib/app-path';
import { useCurrentUser } from '../../../lib/current-user';
import { dateLanguage } from '../../../lib/date-format';
import { downloadFile } from '../../../lib/download-file';
import { useCan } from '../../../lib/use-can';
import { useNightRound } from '../api/get-night-round';
import { useMarkNightRound } from '../api/mark-night-round';

type T = (key: string, opts?: Record<string, unknown>) => string;

/** The badge of each state: red needs a visit, amber a look, green sleeps. */
const STATE_CLASS: Record<RoundState, string> = {
  NOT_HEARD: 'border-red-300 bg-red-50 text-red-800',
  NOT_WORN: 'border-amber-300 bg-amber-50 text-amber-900',
  UP: 'border-sky-300 bg-sky-50 text-sky-900',
  AWAKE: 'border-sky-300 bg-sky-50 text-sky-900',
  ASLEEP: 'border-emerald-300 bg-emerald-50 text-emerald-900',
};

const DAY_MS = 86_400_000;

const isUrgent = (r: RoundWearer) =>
  r.openAlertLevels.some((l) => l === 'EMERGENCY' || l === 'CRITICAL');

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex min-w-0 flex-col">
      <dt className="text-xs text-slate-600">{label}</dt>
      <dd className="min-w-0 text-sm break-words text-slate-900">{children}</dd>
    </div>
  );
}

function MarkForm({ groupId, wearer, t }: { groupId: string; wearer: RoundWearer; t: T }) {
  const [note, setNote] = useState('');
  const mark = useMarkNightRound(groupId);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const trimmed = note.trim();
    mark.mutate(
      { uid: wearer.uid, ...(trimmed ? { note: trimmed } : {}) },
      {
        onSuccess: () => {
          setNote('');
          toast.success(t('marked', { name: wearer.name }), { id: `round-${wearer.uid}` });
        },
        onError: (err) => toast.error(err instanceof Error ? err.message : t('markFailed')),
      },
    );
  };
  return (
    <form className="flex flex-wrap items-center gap-2" onSubmit={submit} data-print="hide">
      <input
        className={`min-h-11 w-full min-w-0 rounded-md border border-slate-300 px-2 text-sm sm:w-40 sm:flex-1 ${focusRing}`}
        aria-label={t('noteFor', { name: wearer.name })}
        placeholder={t('note')}
        maxLength={ROUND_NOTE_MAX}
        value={note}
        onChange={(e) => setNote(e.target.value)}
      />
      <Button
        type="submit"
        variant="primary"
        className="w-full sm:w-auto"
        disabled={mark.isPending}
        data-testid={`round-mark-${wearer.uid}`}
      >
        <Check aria-hidden="true" className="size-4" />
        {t('mark')} <span className="sr-only">{t('markOf', { name: wearer.name })}</span>
      </Button>
    </form>
  );
}

function WearerRow({
  groupId,
  wearer: r,
  timeZone,
  generatedAt,
  lng,
  canMark,
  t,
}: {
  groupId: string;
  wearer: RoundWearer;
  timeZone: string;
  /** When the sheet was read: "now" for this row. */
  generatedAt: string;
  lng: DateLanguage;
  canMark: boolean;
  t: T;
}) {
  const time = (at: string) => formatTime(at, timeZone);
  const lastMark = r.marks[0];
  return (
    <li
      className={clsx(
        'grid grid-cols-2 gap-x-4 gap-y-2 rounded-lg border bg-white p-3 lg:grid-cols-[minmax(9rem,1.2fr)_minmax(9rem,1fr)_6rem_minmax(10rem,1.2fr)_minmax(12rem,1.6fr)] lg:items-start',
        // On A4 one line per wearer, whatever the screen's width was.
        'print:grid-cols-[9rem_8rem_4rem_10rem_1fr] print:gap-y-0 print:rounded-none print:p-1.5',
        isUrgent(r) ? 'border-red-400' : 'border-slate-200',
      )}
      data-print="keep"
      data-testid={`round-row-${r.uid}`}
    >
      <h2 className="col-span-2 text-base font-semibold break-words text-slate-900 lg:col-span-1 print:col-span-1 print:text-sm">
        <PersonName name={r.name} />
        {isUrgent(r) && (
          <span className="mt-1 block text-xs font-semibold text-red-700">{t('urgent')}</span>
        )}
      </h2>
      <dl className="contents">
        <Field label={t('fields.state')}>
          <span
            className={clsx(
              'inline-block rounded border px-1.5 py-0.5 text-sm font-semibold',
              STATE_CLASS[r.state],
            )}
            data-testid={`round-state-${r.uid}`}
          >
            {t(`state.${r.state}`)}
          </span>
          <span className="block text-xs text-slate-700">
            {r.since === null ? t('sinceUnknown') : t('since', { time: time(r.since) })}
          </span>
        </Field>
        <Field label={t('fields.heartRate')}>
          {r.heartRate === null ? t('none') : t('bpm', { value: Math.round(r.heartRate) })}
        </Field>
        <Field label={t('fields.lastAlert')}>
          {r.lastAlert === null ? (
            t('none')
          ) : (
            <>
              {t(`alerts:types.${r.lastAlert.type}`)}{' '}
              <span className="text-xs text-slate-700">
                ({t(`alerts:levels.${r.lastAlert.level}`)}
                {r.lastAlert.status === 'OPEN' ? ` · ${t('open')}` : ''})
              </span>
              <span className="block text-xs text-slate-700">
                {/* The time for the last day (tonight's alerts), the date for anything older. */}
                {Date.parse(generatedAt) - Date.parse(r.lastAlert.openedAt) < DAY_MS
                  ? time(r.lastAlert.openedAt)
                  : formatDate(r.lastAlert.openedAt, lng, timeZone)}
              </span>
            </>
          )}
        </Field>
        <div className="col-span-2 flex min-w-0 flex-col gap-2 lg:col-span-1 print:col-span-1">
          <dt className="text-xs text-slate-600">{t('fields.round')}</dt>
          <dd className="text-sm text-slate-900" data-testid={`round-marks-${r.uid}`}>
            {lastMark === undefined ? (
              <span className="text-slate-700">{t('notMarked')}</span>
            ) : (
              <ul className="flex flex-col gap-0.5">
                {r.marks.map((m) => (
                  <li key={m.id} className="break-words" data-mark-id={m.id}>
                    <time dateTime={m.at}>{time(m.at)}</time> <PersonName name={m.by.name} />
                    {m.note !== null && <span className="text-slate-700"> · {m.note}</span>}
                  </li>
                ))}
              </ul>
            )}
            {canMark && <MarkForm groupId={groupId} wearer={r} t={t} />}
          </dd>
        </div>
      </dl>
    </li>
  );
}

/** /groups/{groupId}/round: the night round of one group, what needs a visit first, marked and printed. */
export function NightRoundView() {
  const { groupId = '' } = useParams();
  const { t: translate, i18n, ready } = useTranslation(['round', 'alerts', 'common']);
  const t = translate as unknown as T;
  const demo = useIsDemo();
  const user = useCurrentUser();
  const sheet = useNightRound(groupId);
  const mayMark = useCan(
    'nightRound:mark',
    sheet.data ? { organizationId: sheet.data.clientId, groupIds: [groupId] } : undefined,
  );
  if (!ready || sheet.isPending) return <Spinner label={t('common:common.loading')} />;
  if (sheet.isError) return <p role="alert">{t('common:common.loadFailed')}</p>;
  const s = sheet.data;
  const lng = dateLanguage(i18n.resolvedLanguage);
  const [y, m, d] = s.night.split('-');
  const nightLabel = t('night', {
    date: lng === 'en' ? formatDate(`${s.night}T12:00:00Z`, 'en', 'UTC') : `${y}/${m}/${d}`,
  });
  const download = async () => {
    const result = await downloadFile(
      getNightRoundCsv,
      { params: { groupId }, query: { night: s.night } },
      demo,
      `night-round-${s.night}.csv`,
    );
    if (!result.ok) toast.error(t('csvFailed'));
  };
  return (
    <section className="flex max-w-6xl flex-col gap-4">
      <PageHeading>{t('title', { group: s.groupName })}</PageHeading>
      <p className="text-sm text-slate-700" data-print="hide">
        {t('intro')}
      </p>
      <div className="flex flex-wrap items-center gap-2" data-print="hide">
        <Button variant="outline" onClick={() => void download()} data-testid="round-csv">
          <Download aria-hidden="true" className="size-4" />
          {t('csv')}
        </Button>
        <PrintButton testId="round-print">{t('print')}</PrintButton>
      </div>
      <PrintableReport
        testId="round-sheet"
        printHeading={t('printedAt', {
          time: formatTime(new Date(), s.timeZone),
          by: user?.name ?? '',
        })}
      >
        <p className="text-sm font-medium text-slate-900" data-testid="round-night">
          {nightLabel} · {t('updated', { time: formatTime(s.generatedAt, s.timeZone) })}
        </p>
        {s.wearers.length === 0 ? (
          <p className="text-sm text-slate-700">{t('empty')}</p>
        ) : (
          <ol className="flex flex-col gap-2" aria-label={t('listLabel')}>
            {s.wearers.map((r) => (
              <WearerRow
                key={r.uid}
                groupId={groupId}
                wearer={r}
                timeZone={s.timeZone}
                generatedAt={s.generatedAt}
                lng={lng}
                canMark={mayMark}
                t={t}
              />
            ))}
          </ol>
        )}
      </PrintableReport>
    </section>
  );
}
