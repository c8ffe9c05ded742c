import { type DaySchedule, WEEKDAYS, type WeeklySchedule } from '@wearable/domain';
import { useTranslation } from 'react-i18next';
import { Button, focusRing } from './button';
import {
  presetOf,
  presetSchedule,
  SCHEDULE_PRESETS,
  type SchedulePreset,
} from '../../lib/schedule-presets';
import { type FieldErrors, FieldMessage, inputClass } from './field-message';

interface ScheduleEditorProps {
  schedule: WeeklySchedule;
  errors: FieldErrors;
  readOnly: boolean;
  onChange: (schedule: WeeklySchedule) => void;
}

/** Per weekday: on or off, from, to; two presets fill the whole week. */
export function ScheduleEditor({ schedule, errors, readOnly, onChange }: ScheduleEditorProps) {
  const { t } = useTranslation('records');
  const active = presetOf(schedule);
  const setDay = (day: keyof WeeklySchedule, change: Partial<DaySchedule>) =>
    onChange({ ...schedule, [day]: { ...schedule[day], ...change } });
  return (
    <fieldset
      data-testid="schedule-editor"
      className="rounded-lg border border-slate-200 bg-white p-4"
    >
      <legend className="px-1 text-base font-semibold text-slate-900">
        {t('settings.schedule.title')}
      </legend>
      <p className="mb-3 text-sm text-slate-600">{t('settings.schedule.help')}</p>
      {!readOnly && (
        <div
          role="group"
          aria-label={t('settings.schedule.presets')}
          className="mb-4 flex flex-wrap gap-2"
        >
          {(Object.keys(SCHEDULE_PRESETS) as SchedulePreset[]).map((preset) => (
            <Button
              key={preset}
              variant="outline"
              aria-pressed={active === preset}
              data-testid={`preset-${preset}`}
              onClick={() => onChange(presetSchedule(preset))}
              className={active === preset ? 'border-teal-700 bg-teal-50' : undefined}
            >
              {t(`settings.schedule.preset.${preset}`)}
            </Button>
          ))}
        </div>
      )}
      <div className="grid gap-2">
        {WEEKDAYS.map((day) => {
          const d = schedule[day];
          const dayName = t(`settings.weekdays.${day}`);
          const startError = errors[`schedule.${day}.startTime`];
          const endError = errors[`schedule.${day}.endTime`];
          return (
            <div
              key={day}
              data-testid={`schedule-${day}`}
              className="flex flex-wrap items-center gap-3"
            >
              <label className="flex w-28 items-center gap-2 text-sm font-medium text-slate-800">
                <input
                  type="checkbox"
                  checked={d.enabled}
                  disabled={readOnly}
                  onChange={(e) => setDay(day, { enabled: e.target.checked })}
                  className={`size-4 accent-teal-700 ${focusRing}`}
                />
                {dayName}
              </label>
              {(['startTime', 'endTime'] as const).map((field) => {
                const error = field === 'startTime' ? startError : endError;
                const id = `schedule-${day}-${field}`;
                return (
                  <div key={field} className="flex flex-col">
                    <label htmlFor={id} className="sr-only">
                      {t(`settings.schedule.${field}`, { day: dayName })}
                    </label>
                    <input
                      id={id}
                      type="time"
                      value={d[field]}
                      disabled={readOnly || !d.enabled}
                      aria-invalid={error !== undefined}
                      aria-describedby={error ? `${id}-error` : undefined}
                      onChange={(e) => setDay(day, { [field]: e.target.value })}
                      className={inputClass(error !== undefined, 'w-32')}
                    />
                    <FieldMessage id={`${id}-error`} error={error} />
                  </div>
                );
              })}
              {!d.enabled && (
                <span className="text-xs text-slate-500">{t('settings.schedule.off')}</span>
              )}
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}
