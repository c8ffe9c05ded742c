import {
  HEAT_PROCEDURE_STEPS,
  type HeatProcedureBody,
  type HeatProcedureStep,
} from '@wearable/domain';
import { useTranslation } from 'react-i18next';
import { focusRing } from '../../../components/ui/button';
import { useHeatProcedure } from '../../../lib/use-heat-procedure';

const TEXT_OF: Record<HeatProcedureStep, keyof Omit<HeatProcedureBody, 'hospital'>> = {
  STOP_WORK: 'stopWork',
  COOL_BODY: 'coolBody',
  MEDICAL_CARE: 'medicalCare',
  EMERGENCY_CONTACT: 'emergencyContacts',
};

interface HeatProcedurePanelProps {
  groupId: string;
  steps: ReadonlySet<HeatProcedureStep>;
  onToggle: (step: HeatProcedureStep) => void;
}

/**
 * A heat alert's confirm dialog (Japan's 2025 heat rule): the site's written procedure, each step a
 * checkbox for "taken", the nearest hospital and the named contacts.
 */
export function HeatProcedurePanel({ groupId, steps, onToggle }: HeatProcedurePanelProps) {
  const { t } = useTranslation('alerts');
  const query = useHeatProcedure(groupId);
  if (query.isPending) return <p className="text-sm text-slate-600">{t('heat.loading')}</p>;
  if (query.isError) return null;
  const { procedure, contacts } = query.data;
  return (
    <section
      aria-labelledby="heat-procedure-title"
      data-testid="heat-procedure"
      className="flex flex-col gap-3 rounded-md border border-red-200 bg-red-50 p-3"
    >
      <h3 id="heat-procedure-title" className="text-sm font-semibold text-red-900">
        {t('heat.title', { group: query.data.groupName })}
      </h3>
      {procedure === null ? (
        <p className="text-sm text-slate-800">{t('heat.none')}</p>
      ) : (
        <>
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-1 text-xs text-slate-700">{t('heat.stepsLegend')}</legend>
            {HEAT_PROCEDURE_STEPS.map((step) => (
              <label key={step} className="flex min-h-11 items-start gap-2 text-sm text-slate-900">
                <input
                  type="checkbox"
                  className={`mt-1 h-5 w-5 shrink-0 ${focusRing}`}
                  checked={steps.has(step)}
                  onChange={() => onToggle(step)}
                  data-testid={`heat-step-${step}`}
                />
                <span>
                  <span className="font-medium">{t(`heat.steps.${step}`)}</span>
                  <span className="block whitespace-pre-wrap break-words text-slate-700">
                    {procedure[TEXT_OF[step]]}
                  </span>
                </span>
              </label>
            ))}
          </fieldset>
          <div className="text-sm text-slate-900" data-testid="heat-hospital">
            <p className="font-medium">{t('heat.hospital')}</p>
            <p className="break-words">{procedure.hospital.name}</p>
            <p className="break-words text-slate-700">{procedure.hospital.address}</p>
            <a
              className={`text-blue-700 underline ${focusRing}`}
              href={`tel:${procedure.hospital.phone.replace(/[^\d+]/g, '')}`}
            >
              {procedure.hospital.phone}
            </a>
          </div>
        </>
      )}
      <div className="text-sm text-slate-900">
        <p className="font-medium">{t('heat.contacts')}</p>
        {contacts.length === 0 ? (
          <p className="text-slate-700">{t('heat.noContacts')}</p>
        ) : (
          <ol className="list-decimal pl-5">
            {contacts.map((c, i) => (
              <li key={i} className="break-words">
                {c.name ?? c.phoneNumber}
                {c.name && c.phoneNumber ? ` (${c.phoneNumber})` : ''} ·{' '}
                {t(`heat.channel.${c.channel}`)}
              </li>
            ))}
          </ol>
        )}
      </div>
    </section>
  );
}
