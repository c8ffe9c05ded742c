import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { focusRing } from '../../../components/ui/button';
import { WEARER_STATES, type WearerState } from '../lib/wearer-view';

/** The list's filters: free text and a state; both work on the list in memory. */
export function WearerFilter({
  text,
  state,
  onText,
  onState,
}: {
  text: string;
  state: WearerState;
  onText: (text: string) => void;
  onState: (state: WearerState) => void;
}) {
  const { t } = useTranslation();
  const textId = useId();
  const stateId = useId();
  const field = `rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm ${focusRing}`;
  return (
    <div className="mb-3 flex flex-wrap items-end gap-3" role="search">
      <div className="flex min-w-0 flex-1 flex-col gap-1 text-sm text-slate-600">
        <label htmlFor={textId}>{t('devices.filter.text')}</label>
        <input
          id={textId}
          type="search"
          data-testid="wearer-search"
          value={text}
          onChange={(event) => onText(event.target.value)}
          placeholder={t('devices.filter.textHint')}
          className={`w-full min-w-0 sm:max-w-xs ${field}`}
        />
      </div>
      <div className="flex flex-col gap-1 text-sm text-slate-600">
        <label htmlFor={stateId}>{t('devices.filter.state')}</label>
        <select
          id={stateId}
          data-testid="wearer-state-filter"
          value={state}
          onChange={(event) => onState(event.target.value as WearerState)}
          className={field}
        >
          {WEARER_STATES.map((option) => (
            <option key={option} value={option}>
              {t(`devices.filter.states.${option}`)}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}
