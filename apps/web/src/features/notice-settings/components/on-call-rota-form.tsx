import {
  DEFAULT_SHIFT_PATTERN,
  ON_CALL_KINDS,
  type OnCallKind,
  type OnCallRota,
  onCallRota,
  SHIFT_CODES,
  SHIFT_PATTERN_MAX,
  type ShiftCode,
} from '@wearable/domain';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, focusRing } from '../../../components/ui/button';
import { FormFailure } from '../../../components/ui/form-parts';
import { fieldClass } from './recipient-editor';

type Person = { userId: string; name: string };

const today = () => new Date().toISOString().slice(0, 10);

/** A blank rota: daily, from today, handing over at 09:00, the usual shift times for a shift cycle. */
const blank = (): OnCallRota => ({
  kind: 'daily',
  startsOn: today(),
  handoverTime: '09:00',
  members: [],
});

/** The rota as the form edits it: every field present, so switching the kind loses nothing. */
interface RotaDraft {
  kind: OnCallKind;
  startsOn: string;
  handoverTime: string;
  members: string[];
  separateHolidays: boolean;
  holidayMembers: string[];
  shiftPattern: ShiftCode[];
  day: { start: string; end: string };
  night: { start: string; end: string };
}

const draftOf = (r: OnCallRota | null): RotaDraft => {
  const rota = r ?? blank();
  return {
    kind: rota.kind,
    startsOn: rota.startsOn,
    handoverTime: rota.handoverTime,
    members: [...rota.members],
    separateHolidays: rota.holidayMembers !== undefined,
    holidayMembers: [...(rota.holidayMembers ?? [])],
    shiftPattern: [...(rota.shiftPattern ?? DEFAULT_SHIFT_PATTERN)],
    day: rota.dayShift ?? { start: '09:00', end: '17:00' },
    night: rota.nightShift ?? { start: '17:00', end: '09:00' },
  };
};

const rotaOf = (d: RotaDraft): OnCallRota => ({
  kind: d.kind,
  startsOn: d.startsOn,
  handoverTime: d.kind === 'shifts' ? d.day.start : d.handoverTime,
  members: d.members,
  ...(d.kind !== 'shifts' && d.separateHolidays ? { holidayMembers: d.holidayMembers } : {}),
  ...(d.kind === 'shifts'
    ? { shiftPattern: d.shiftPattern, dayShift: d.day, nightShift: d.night }
    : {}),
});

/** An ordered list of people: add from the organisation's staff, move, remove. */
function PeopleList({
  label,
  ids,
  candidates,
  onChange,
  testId,
}: {
  label: string;
  ids: string[];
  candidates: Person[];
  onChange: (ids: string[]) => void;
  testId: string;
}) {
  const { t } = useTranslation('staff-settings');
  const id = useId();
  const name = (u: string) => candidates.find((c) => c.userId === u)?.name ?? u;
  const move = (i: number, delta: -1 | 1) => {
    const next = [...ids];
    const [x] = next.splice(i, 1);
    if (x !== undefined) next.splice(i + delta, 0, x);
    onChange(next);
  };
  const left = candidates.filter((c) => !ids.includes(c.userId));
  return (
    <fieldset className="grid gap-2">
      <legend className="text-sm font-medium text-slate-800">{label}</legend>
      <ol className="grid gap-2" data-testid={testId}>
        {ids.map((u, i) => (
          <li key={u} className="flex flex-wrap items-center gap-2 text-sm text-slate-900">
            <span className="min-w-0 flex-1 break-words" data-testid="on-call-person">
              {i + 1}. {name(u)}
            </span>
            <Button
              variant="outline"
              aria-disabled={i === 0}
              onClick={() => i > 0 && move(i, -1)}
              aria-label={t('onCall.moveUp', { name: name(u) })}
            >
              ↑
            </Button>
            <Button
              variant="outline"
              aria-disabled={i === ids.length - 1}
              onClick={() => i < ids.length - 1 && move(i, 1)}
              aria-label={t('onCall.moveDown', { name: name(u) })}
            >
              ↓
            </Button>
            <Button
              variant="ghost"
              onClick={() => onChange(ids.filter((x) => x !== u))}
              aria-label={t('onCall.removePerson', { name: name(u) })}
            >
              {t('onCall.removeShort')}
            </Button>
          </li>
        ))}
      </ol>
      {left.length > 0 && (
        <div>
          <label htmlFor={`${id}-add`} className="block text-sm text-slate-700">
            {t('onCall.addPerson')}
          </label>
          <select
            id={`${id}-add`}
            value=""
            onChange={(e) => e.target.value && onChange([...ids, e.target.value])}
            data-testid={`${testId}-add`}
            className={`${fieldClass} border-slate-300`}
          >
            <option value="">{t('onCall.pickPerson')}</option>
            {left.map((c) => (
              <option key={c.userId} value={c.userId}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
      )}
    </fieldset>
  );
}

/** The rota's form: kind, first day, handover time or shift times, the people in turn order. */
export function OnCallRotaForm({
  stored,
  candidates,
  saving,
  error,
  onSave,
  onCancel,
}: {
  stored: OnCallRota | null;
  candidates: Person[];
  saving: boolean;
  error: Error | null;
  onSave: (rota: OnCallRota | null) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('staff-settings');
  const id = useId();
  const [d, setD] = useState(() => draftOf(stored));
  const [problem, setProblem] = useState('');
  const set = (change: Partial<RotaDraft>) => setD({ ...d, ...change });
  const time = (value: string, onChange: (v: string) => void, label: string, testId: string) => (
    <div>
      <label htmlFor={`${id}-${testId}`} className="block text-sm text-slate-700">
        {label}
      </label>
      <input
        id={`${id}-${testId}`}
        type="time"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        data-testid={testId}
        className={`${fieldClass} border-slate-300 sm:w-40`}
      />
    </div>
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const rota = rotaOf(d);
    if (!rota.members.length) return setProblem(t('onCall.errors.members'));
    if (d.separateHolidays && d.kind !== 'shifts' && !d.holidayMembers.length)
      return setProblem(t('onCall.errors.holidayMembers'));
    if (!onCallRota.safeParse(rota).success) return setProblem(t('onCall.errors.rota'));
    setProblem('');
    onSave(rota);
  };

  return (
    <form
      noValidate
      onSubmit={submit}
      data-testid="on-call-rota-form"
      aria-labelledby={`${id}-title`}
      className="grid gap-4 rounded-lg border border-teal-300 bg-teal-50/40 p-4"
    >
      <h3 id={`${id}-title`} className="text-base font-semibold text-slate-900">
        {t('onCall.rotaTitle')}
      </h3>
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">{t('onCall.kindLabel')}</legend>
        <div className="mt-1 flex flex-wrap gap-x-6">
          {ON_CALL_KINDS.map((kind) => (
            <label key={kind} className="flex min-h-11 items-center gap-2 text-sm text-slate-800">
              <input
                type="radio"
                name={`${id}-kind`}
                checked={d.kind === kind}
                onChange={() => set({ kind })}
                data-testid={`on-call-kind-${kind}`}
                className={`size-4 accent-teal-700 ${focusRing}`}
              />
              {t(`onCall.kind.${kind}`)}
            </label>
          ))}
        </div>
        <p className="mt-1 text-xs text-slate-600">{t(`onCall.kindHelp.${d.kind}`)}</p>
      </fieldset>
      <div className="flex flex-wrap gap-4">
        <div>
          <label htmlFor={`${id}-starts`} className="block text-sm text-slate-700">
            {t('onCall.startsOn')}
          </label>
          <input
            id={`${id}-starts`}
            type="date"
            value={d.startsOn}
            onChange={(e) => set({ startsOn: e.target.value })}
            data-testid="on-call-starts-on"
            className={`${fieldClass} border-slate-300 sm:w-48`}
          />
        </div>
        {d.kind !== 'shifts' &&
          time(
            d.handoverTime,
            (v) => set({ handoverTime: v }),
            t('onCall.handoverTime'),
            'on-call-handover',
          )}
      </div>
      {d.kind === 'shifts' && (
        <div className="grid gap-3">
          <div className="flex flex-wrap gap-4">
            {time(
              d.day.start,
              (v) => set({ day: { ...d.day, start: v } }),
              t('onCall.dayStart'),
              'on-call-day-start',
            )}
            {time(
              d.day.end,
              (v) => set({ day: { ...d.day, end: v } }),
              t('onCall.dayEnd'),
              'on-call-day-end',
            )}
            {time(
              d.night.start,
              (v) => set({ night: { ...d.night, start: v } }),
              t('onCall.nightStart'),
              'on-call-night-start',
            )}
            {time(
              d.night.end,
              (v) => set({ night: { ...d.night, end: v } }),
              t('onCall.nightEnd'),
              'on-call-night-end',
            )}
          </div>
          <fieldset>
            <legend className="text-sm font-medium text-slate-800">{t('onCall.pattern')}</legend>
            <ol className="mt-1 flex flex-wrap gap-2" data-testid="on-call-pattern">
              {d.shiftPattern.map((code, i) => (
                <li key={i}>
                  <label className="sr-only" htmlFor={`${id}-pattern-${i}`}>
                    {t('onCall.patternDay', { day: i + 1 })}
                  </label>
                  <select
                    id={`${id}-pattern-${i}`}
                    value={code}
                    onChange={(e) =>
                      set({
                        shiftPattern: d.shiftPattern.map((c, j) =>
                          j === i ? (SHIFT_CODES.find((x) => x === e.target.value) ?? c) : c,
                        ),
                      })
                    }
                    className={`min-h-11 rounded-md border border-slate-300 bg-white px-2 text-base ${focusRing}`}
                  >
                    {SHIFT_CODES.map((c) => (
                      <option key={c} value={c}>
                        {t(`onCall.shift.${c}`)}
                      </option>
                    ))}
                  </select>
                </li>
              ))}
            </ol>
            <div className="mt-2 flex flex-wrap gap-2">
              {d.shiftPattern.length < SHIFT_PATTERN_MAX && (
                <Button
                  variant="outline"
                  onClick={() => set({ shiftPattern: [...d.shiftPattern, 'OFF'] })}
                >
                  + {t('onCall.patternAdd')}
                </Button>
              )}
              {d.shiftPattern.length > 1 && (
                <Button
                  variant="ghost"
                  onClick={() => set({ shiftPattern: d.shiftPattern.slice(0, -1) })}
                >
                  {t('onCall.patternRemove')}
                </Button>
              )}
            </div>
            <p className="mt-1 text-xs text-slate-600">{t('onCall.patternHelp')}</p>
          </fieldset>
        </div>
      )}
      <PeopleList
        label={t('onCall.members')}
        ids={d.members}
        candidates={candidates}
        onChange={(members) => set({ members })}
        testId="on-call-members"
      />
      {d.kind !== 'shifts' && (
        <div className="grid gap-2">
          <label className="flex items-start gap-2 text-sm text-slate-800">
            <input
              type="checkbox"
              className="mt-1"
              checked={d.separateHolidays}
              onChange={(e) => set({ separateHolidays: e.target.checked })}
              data-testid="on-call-separate-holidays"
            />
            <span>{t('onCall.separateHolidays')}</span>
          </label>
          {d.separateHolidays && (
            <PeopleList
              label={t('onCall.holidayMembers')}
              ids={d.holidayMembers}
              candidates={candidates}
              onChange={(holidayMembers) => set({ holidayMembers })}
              testId="on-call-holiday-members"
            />
          )}
        </div>
      )}
      {problem && (
        <p role="alert" className="text-sm text-red-700" data-testid="on-call-rota-problem">
          {problem}
        </p>
      )}
      <FormFailure error={error} />
      <div className="flex flex-wrap gap-2">
        <Button
          type="submit"
          variant="primary"
          aria-disabled={saving}
          data-testid="on-call-rota-save"
        >
          {saving ? t('notice.saving') : t('onCall.saveRota')}
        </Button>
        {stored && (
          <Button variant="ghost" onClick={() => onSave(null)} data-testid="on-call-rota-delete">
            {t('onCall.deleteRota')}
          </Button>
        )}
        <Button variant="outline" onClick={onCancel}>
          {t('notice.editor.cancel')}
        </Button>
      </div>
    </form>
  );
}
