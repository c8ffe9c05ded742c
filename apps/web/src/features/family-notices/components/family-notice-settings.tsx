import type { FamilyNoticeChannel } from '@wearable/domain';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { paths } from '../../../config/paths';
import { AppLink } from '../../../lib/app-path';
import { useFamilyNotices, useSaveFamilyNotice } from '../api/family-notices';

type Choice = FamilyNoticeChannel | 'OFF';
const CHOICES: readonly Choice[] = ['OFF', 'SMS', 'EMAIL', 'PUSH', 'LINE'];

/**
 * A family member's choice to be told of one watched wearer's EMERGENCY and CRITICAL alerts
 * (issue 34), on /user/settings/alert beside the wearer's alert settings: not at all, by SMS to
 * their account's phone number, by mail to its address, or by push to the browsers they subscribed
 * (issue 38), or by LINE once linked on /user/info (decision 0024). Saved at once on a change.
 */
export function FamilyNoticeSettings({ uid, name }: { uid: string; name: string }) {
  const { t } = useTranslation(['family', 'common']);
  const notices = useFamilyNotices();
  const save = useSaveFamilyNotice();
  const headingId = useId();
  // The choice just made, shown at once and until the list is read again: the mutation's own pending state
  // arrives a tick later, and a controlled radio went back to the old choice in between (the click "did nothing").
  const [chosen, setChosen] = useState<Choice | null>(null);
  if (notices.isPending) return null;
  const data = notices.data;
  const wearer = data?.wearers.find((w) => w.uid === uid);
  const current: Choice =
    chosen ?? (save.isPending ? (save.variables.channel ?? 'OFF') : (wearer?.channel ?? 'OFF'));
  const labelOf = (choice: Choice): string => {
    if (choice === 'OFF') return t('family:notices.off');
    if (choice === 'LINE')
      return data?.line?.linked ? t('family:notices.line') : t('family:notices.lineMissing');
    if (choice === 'PUSH')
      return data?.pushSubscriptions
        ? t('family:notices.push', { count: data.pushSubscriptions })
        : t('family:notices.pushMissing');
    if (choice === 'SMS')
      return data?.phoneNumber
        ? t('family:notices.sms', { phone: data.phoneNumber })
        : t('family:notices.smsMissing');
    return data?.email
      ? t('family:notices.email', { email: data.email })
      : t('family:notices.emailMissing');
  };
  const available = (choice: Choice) =>
    choice === 'OFF' ||
    (choice === 'LINE'
      ? Boolean(data?.line?.linked)
      : choice === 'SMS'
        ? Boolean(data?.phoneNumber)
        : choice === 'PUSH'
          ? Boolean(data?.pushSubscriptions)
          : Boolean(data?.email));
  return (
    <section
      aria-labelledby={headingId}
      data-testid="family-notice-settings"
      className="mb-6 rounded-lg border border-slate-200 bg-white p-4"
    >
      <h2 id={headingId} className="text-base font-semibold text-slate-900">
        {t('family:notices.heading')}
      </h2>
      {notices.isError || !wearer ? (
        <p className="mt-2 text-sm text-slate-600">{t('family:notices.notWatched')}</p>
      ) : (
        <>
          <p className="mt-1 text-sm text-slate-600">{t('family:notices.intro', { name })}</p>
          <fieldset className="mt-3">
            <legend className="text-sm font-medium text-slate-700">
              {t('family:notices.legend')}
            </legend>
            <div className="mt-2 flex flex-col gap-2 sm:flex-row sm:flex-wrap">
              {/* LINE only where the wearer's organisation set up its LINE official account. */}
              {CHOICES.filter((c) => c !== 'LINE' || data?.line?.available).map((choice) => (
                <label
                  key={choice}
                  className="flex min-h-11 cursor-pointer items-center gap-2 rounded-md border border-slate-300 px-3 text-sm break-words text-slate-800 has-[:checked]:border-teal-700 has-[:checked]:bg-teal-50 has-[:disabled]:cursor-not-allowed has-[:disabled]:text-slate-500 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-teal-600"
                >
                  <input
                    type="radio"
                    name={`family-notice-${uid}`}
                    value={choice}
                    checked={current === choice}
                    disabled={!available(choice) || save.isPending}
                    onChange={() => {
                      setChosen(choice);
                      save.mutate(
                        { uid, channel: choice === 'OFF' ? null : choice },
                        { onSettled: () => setChosen(null) },
                      );
                    }}
                    className="accent-teal-700"
                  />
                  {labelOf(choice)}
                </label>
              ))}
            </div>
          </fieldset>
          <p className="mt-2 text-sm text-slate-600">
            <AppLink
              to={paths.user.info.build()}
              className="text-teal-800 underline underline-offset-2"
            >
              {t('family:notices.addContact')}
            </AppLink>
          </p>
          <p role="status" className="mt-2 text-sm" data-testid="family-notice-status">
            {save.isSuccess && <span className="text-teal-800">{t('family:notices.saved')}</span>}
            {save.isError && <span className="text-red-700">{t('family:notices.saveFailed')}</span>}
          </p>
        </>
      )}
    </section>
  );
}
