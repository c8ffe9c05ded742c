import type { AlertPolicyResponse } from '@wearable/domain';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { DateTime } from '../../../components/ui/date-time';
import { Spinner } from '../../../components/ui/spinner';
import { useCan } from '../../../lib/use-can';
import { useFocusAfterRender } from '../../../lib/use-focus-after-render';
import { useAlertPolicy } from '../api/get-alert-policy';
import { isOffAt0, type PolicyKey, POLICY_SECTIONS, UNIT_OF } from '../alert-policy-draft';
import { AlertPolicyForm } from './alert-policy-form';

/** A setting's value with its unit: ja 「10分」, en "10 min"; man-down at 0 is 「オフ」 / "Off". */
export function useValueText() {
  const { t } = useTranslation('staff-settings');
  return (key: PolicyKey, value: number) =>
    isOffAt0(key) && value === 0 ? t('policy.off') : t(`policy.units.${UNIT_OF[key]}`, { value });
}

/**
 * The organisation's notification timing and limits (its alert policy) on the alert notice
 * settings page: every value with what it does; owners change them in a form, others read them.
 */
export function AlertPolicyPanel({ organizationId }: { organizationId: string }) {
  const { t } = useTranslation(['staff-settings', 'common']);
  const policy = useAlertPolicy(organizationId);
  const mayEdit = useCan('alertPolicy:update', { organizationId });
  const [editing, setEditing] = useState(false);
  const headingId = useId();
  const editId = useId();
  const focusAfterRender = useFocusAfterRender();
  const stopEditing = () => {
    setEditing(false);
    focusAfterRender(editId);
  };

  return (
    <section
      aria-labelledby={headingId}
      className="grid min-w-0 gap-3 rounded-lg border border-slate-200 bg-white p-4"
      data-testid="alert-policy"
    >
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        {t('policy.title')}
      </h2>
      <p className="text-sm text-slate-700">{t('policy.intro')}</p>
      {policy.isPending && <Spinner label={t('common:common.loading')} />}
      {policy.isError && (
        <p role="alert" className="text-sm text-red-700">
          {t('common:common.loadFailed')}
        </p>
      )}
      {policy.data &&
        (editing ? (
          <AlertPolicyForm stored={policy.data} onDone={stopEditing} />
        ) : (
          <>
            <PolicyValues stored={policy.data} />
            {mayEdit ? (
              <div>
                <Button
                  id={editId}
                  variant="outline"
                  onClick={() => setEditing(true)}
                  data-testid="alert-policy-edit"
                >
                  {t('policy.edit')}
                </Button>
              </div>
            ) : (
              <p className="text-sm text-slate-600" data-testid="alert-policy-read-only">
                {t('policy.readOnly')}
              </p>
            )}
          </>
        ))}
    </section>
  );
}

function PolicyValues({ stored }: { stored: AlertPolicyResponse }) {
  const { t } = useTranslation('staff-settings');
  const valueText = useValueText();
  const differs = (key: PolicyKey) => stored.policy[key] !== stored.defaults[key];
  return (
    <div className="grid gap-4">
      {POLICY_SECTIONS.map((section) => (
        <div key={section.id} className="grid gap-2">
          <h3 className="text-base font-semibold text-slate-900">
            {t(`policy.sections.${section.id}`)}
          </h3>
          <dl className="grid gap-3">
            {section.keys.map((key) => (
              <div key={key} className="grid gap-0.5 border-t border-slate-100 pt-2">
                <dt className="text-sm font-medium text-slate-800">
                  {t(`policy.fields.${key}.label`)}
                </dt>
                <dd className="text-base font-semibold text-slate-900 tabular-nums">
                  <span data-testid={`alert-policy-value-${key}`}>
                    {valueText(key, stored.policy[key])}
                  </span>
                  {differs(key) && (
                    <span className="ml-2 text-sm font-normal text-slate-600">
                      {t('policy.default', { value: valueText(key, stored.defaults[key]) })}
                    </span>
                  )}
                </dd>
                <dd className="text-sm break-words text-slate-600">
                  {t(`policy.fields.${key}.help`)}
                </dd>
              </div>
            ))}
          </dl>
        </div>
      ))}
      <p className="text-sm text-slate-600" data-testid="alert-policy-updated">
        {stored.updatedAt ? (
          <>
            {t('policy.updated', { name: stored.updatedBy?.name ?? t('policy.someone') })}{' '}
            <DateTime at={stored.updatedAt} />
          </>
        ) : (
          t('policy.allDefaults')
        )}
      </p>
    </div>
  );
}
