import { type AlertView, isPersonalRole, type Role } from '@wearable/domain';
import { clsx } from 'clsx';
import { CheckCircle2, Siren, X } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { focusRing } from '../../../components/ui/button';
import { paths } from '../../../config/paths';
import { AppLink } from '../../../lib/app-path';
import { useCurrentUser, useSession } from '../../../lib/current-user';
import { formatLocalDateTime } from '../../../lib/date-format';
import { session } from '../../../lib/session';
import { useFamilyAlerts } from './family-alerts';

const DISMISSED_KEY = 'familyBanner.dismissed';

const readDismissed = (): string[] => {
  try {
    const raw: unknown = JSON.parse(sessionStorage.getItem(DISMISSED_KEY) ?? '[]');
    return Array.isArray(raw) ? raw.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
};

/**
 * The banner of a personal user's every page (issue 34): each open EMERGENCY or CRITICAL alert of
 * a watched wearer, what and when (no place: no organisation setting shows places to personal
 * users), live through the stream's `alert` events. Once staff confirm it, it says it is being
 * handled and may be put away; an alert that closed by itself is gone. Announced (role=alert),
 * named for screen readers, each with a link to the wearer's records.
 */
export function FamilyAlertBanner({ role }: { role: Role | null }) {
  const { t, i18n, ready } = useTranslation(['family', 'alerts']);
  const enabled = ready && role !== null && isPersonalRole(role);
  const alerts = useFamilyAlerts(enabled);
  const [dismissed, setDismissed] = useState<string[]>(readDismissed);
  const headingId = useId();
  const shown = (alerts.data ?? []).filter((a) => !dismissed.includes(a.id));
  if (!enabled || shown.length === 0) return null;
  const dismiss = (id: string) => {
    const next = [...dismissed, id];
    sessionStorage.setItem(DISMISSED_KEY, JSON.stringify(next));
    setDismissed(next);
  };
  return (
    <section
      aria-labelledby={headingId}
      data-testid="family-alert-banner"
      className="border-t border-slate-200"
    >
      <h2 id={headingId} className="sr-only">
        {t('family:banner.heading')}
      </h2>
      <div className="mx-auto max-w-6xl space-y-2 px-4 py-2">
        {shown.map((alert) => (
          <FamilyAlertItem
            key={alert.id}
            alert={alert}
            locale={i18n.resolvedLanguage ?? 'ja'}
            onDismiss={() => dismiss(alert.id)}
          />
        ))}
      </div>
    </section>
  );
}

function FamilyAlertItem({
  alert,
  locale,
  onDismiss,
}: {
  alert: AlertView;
  locale: string;
  onDismiss: () => void;
}) {
  const { t } = useTranslation(['family', 'alerts']);
  const user = useCurrentUser();
  const { selectedDevice } = useSession();
  // A family only ever receives its wearers' alerts; one without a wearer (a device nobody holds) is not theirs.
  const wearer = alert.wearer;
  if (wearer === null) return null;
  const handled = alert.confirmedAt !== null;
  const emergency = alert.level === 'EMERGENCY';
  const what = t('family:banner.what', {
    name: wearer.name,
    type: t(`alerts:types.${alert.type}`),
  });
  const when = t('family:banner.when', { time: formatLocalDateTime(alert.openedAt, locale) });
  const status = handled ? t('family:banner.handled') : t('family:banner.open');
  // A family member watching several people: the link shows this one's records.
  const device = user?.devices.find((d) => d.uid === wearer.uid);
  const choose = () => {
    if (device && selectedDevice?.uid !== device.uid) session.selectDevice(device);
  };
  return (
    <div
      role="alert"
      data-testid="family-alert"
      data-alert-id={alert.id}
      data-state={handled ? 'handled' : 'open'}
      className={clsx(
        'flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md px-3 py-2 text-sm',
        handled
          ? 'border border-teal-300 bg-teal-50 text-teal-950'
          : emergency
            ? 'bg-red-700 text-white'
            : 'border border-red-300 bg-red-50 text-red-950',
      )}
    >
      {handled ? (
        <CheckCircle2 aria-hidden="true" className="size-5 shrink-0" />
      ) : (
        <Siren aria-hidden="true" className="size-5 shrink-0" />
      )}
      <p className="min-w-0 flex-1">
        <span className="font-semibold">
          <span className="sr-only">{t(`alerts:levels.${alert.level}`)}: </span>
          {what}
        </span>{' '}
        <time dateTime={alert.openedAt} className="whitespace-nowrap tabular-nums">
          {when}
        </time>
        <span className="block" data-testid="family-alert-status">
          {status}
        </span>
      </p>
      <AppLink
        to={paths.user.record.build()}
        onClick={choose}
        className={clsx(
          'inline-flex min-h-11 items-center rounded-md px-2 font-medium underline underline-offset-2',
          focusRing,
          // The ring in white on the red band, where teal would barely show.
          emergency && !handled && 'text-white focus-visible:outline-white',
        )}
      >
        {t('family:banner.openRecords')}
        <span className="sr-only">{` (${wearer.name})`}</span>
      </AppLink>
      {handled && (
        <button
          type="button"
          onClick={onDismiss}
          aria-label={t('family:banner.dismiss', { name: wearer.name })}
          className={clsx('inline-flex size-11 items-center justify-center rounded-md', focusRing)}
        >
          <X aria-hidden="true" className="size-5" />
        </button>
      )}
    </div>
  );
}
