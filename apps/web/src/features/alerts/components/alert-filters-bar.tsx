import { ALERT_LEVELS, ALERT_TYPES } from '@wearable/domain';
import { useTranslation } from 'react-i18next';
import { focusRing } from '../../../components/ui/button';
import {
  ALERT_PERIODS,
  isAlertLevel,
  isAlertPeriod,
  isAlertType,
  type AlertFilterState,
} from '../api/alert-filters';

// max-w-full: a long option (English alert types) must not widen the page on a phone.
const selectClass = `max-w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm ${focusRing}`;

/** Unconfirmed only, type, level, period: each change starts again at page 1 (the caller's job). */
export function AlertFiltersBar({
  value,
  onChange,
}: {
  value: AlertFilterState;
  onChange: (next: AlertFilterState) => void;
}) {
  const { t } = useTranslation('alerts');
  return (
    <fieldset
      data-testid="alert-filters"
      className="mb-4 flex min-w-0 flex-wrap items-end gap-4 rounded-lg border border-slate-200 bg-white px-4 py-3"
    >
      <legend className="sr-only">{t('filters.legend')}</legend>
      <label className="flex items-center gap-2 text-sm text-slate-700">
        <input
          type="checkbox"
          data-testid="filter-not-confirmed"
          checked={value.notConfirmed}
          onChange={(e) => onChange({ ...value, notConfirmed: e.target.checked })}
          className={`size-4 accent-teal-700 ${focusRing}`}
        />
        {t('filters.notConfirmed')}
      </label>
      <label className="flex max-w-full min-w-0 flex-col gap-1 text-xs text-slate-600">
        {t('filters.type')}
        <select
          data-testid="filter-type"
          className={selectClass}
          value={value.type}
          onChange={(e) =>
            onChange({ ...value, type: isAlertType(e.target.value) ? e.target.value : '' })
          }
        >
          <option value="">{t('filters.any')}</option>
          {ALERT_TYPES.map((type) => (
            <option key={type} value={type}>
              {t(`types.${type}`)}
            </option>
          ))}
        </select>
      </label>
      <label className="flex max-w-full min-w-0 flex-col gap-1 text-xs text-slate-600">
        {t('filters.level')}
        <select
          data-testid="filter-level"
          className={selectClass}
          value={value.level}
          onChange={(e) =>
            onChange({ ...value, level: isAlertLevel(e.target.value) ? e.target.value : '' })
          }
        >
          <option value="">{t('filters.any')}</option>
          {ALERT_LEVELS.map((level) => (
            <option key={level} value={level}>
              {t(`levels.${level}`)}
            </option>
          ))}
        </select>
      </label>
      <label className="flex max-w-full min-w-0 flex-col gap-1 text-xs text-slate-600">
        {t('filters.period')}
        <select
          data-testid="filter-period"
          className={selectClass}
          value={value.period}
          onChange={(e) =>
            onChange({
              ...value,
              period: isAlertPeriod(e.target.value) ? e.target.value : value.period,
            })
          }
        >
          {ALERT_PERIODS.map((period) => (
            <option key={period} value={period}>
              {t(`periods.${period}`)}
            </option>
          ))}
        </select>
      </label>
    </fieldset>
  );
}
