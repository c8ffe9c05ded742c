import { clsx } from 'clsx';
import { useTranslation } from 'react-i18next';
import { focusRing } from '../../../components/ui/button';
import { RECORD_PERIODS, type RecordPeriod } from '../api/records-api';

/** Day / week / month as a group of toggle buttons (the pressed one is announced). */
export function PeriodSwitch({
  period,
  onChange,
}: {
  period: RecordPeriod;
  onChange: (p: RecordPeriod) => void;
}) {
  const { t } = useTranslation('records');
  return (
    <div
      role="group"
      aria-label={t('period.label')}
      className="inline-flex overflow-hidden rounded-md border border-slate-300"
    >
      {RECORD_PERIODS.map((p) => (
        <button
          key={p}
          type="button"
          aria-pressed={p === period}
          data-testid={`record-period-${p}`}
          onClick={() => onChange(p)}
          className={clsx(
            'min-h-10 px-4 text-sm font-medium',
            p === period ? 'bg-teal-700 text-white' : 'bg-white text-slate-700 hover:bg-slate-50',
            focusRing,
          )}
        >
          {t(`period.${p}`)}
        </button>
      ))}
    </div>
  );
}
