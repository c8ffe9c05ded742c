import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { useCan } from '../../../lib/use-can';
import { DateTime } from '../../../components/ui/date-time';
import {
  fetchPushKey,
  usePushSubscriptions,
  useRemovePushSubscription,
  useSavePushSubscription,
} from '../api/push-api';
import { currentSubscription, pushSupported, subscribeThisBrowser } from '../lib/browser-push';

type Status = 'subscribed' | 'removed' | 'denied' | 'failed' | null;

/**
 * /user/info: alert notices by Web Push on this browser or installed console (issue 38 item 1). Subscribing
 * asks for the notification permission and hands the browser's subscription to the server; the list shows
 * every browser of this person that receives them, by browser and system, each removable. Which alerts arrive
 * is the groups' notice settings' (a PUSH recipient); this only says where.
 */
export function PushSettings() {
  // A family member is told of the wearers they watch (their choice on /user/settings/alert), not of a group's.
  const family = useCan('familyNotice:manage');
  const { t } = useTranslation();
  const list = usePushSubscriptions();
  const save = useSavePushSubscription();
  const remove = useRemovePushSubscription();
  const [status, setStatus] = useState<Status>(null);
  const [pending, setPending] = useState(false);
  const [here, setHere] = useState<boolean | null>(null);
  const supported = pushSupported();

  // Subscribed here: this browser holds a subscription and the server pushes to it for this session (after a
  // sign-out the browser keeps its subscription, but the server no longer pushes to it until it is renewed).
  const listedHere = list.data?.subscriptions.some((s) => s.current) ?? false;
  useEffect(() => {
    void currentSubscription().then((s) => setHere(s !== null && listedHere));
  }, [listedHere]);

  async function subscribe() {
    setPending(true);
    setStatus(null);
    try {
      const { publicKey } = await fetchPushKey();
      const outcome = await subscribeThisBrowser(publicKey);
      if (!outcome.ok) return setStatus(outcome.reason);
      await save.mutateAsync(outcome.body);
      setStatus('subscribed');
      setHere(true);
    } catch {
      setStatus('failed');
    } finally {
      setPending(false);
    }
  }

  async function unsubscribeHere() {
    setPending(true);
    setStatus(null);
    try {
      const current = list.data?.subscriptions.find((s) => s.current);
      const sub = await currentSubscription();
      await sub?.unsubscribe();
      if (current) await remove.mutateAsync(current.id);
      setStatus('removed');
      setHere(false);
    } catch {
      setStatus('failed');
    } finally {
      setPending(false);
    }
  }

  const device = (s: { browser: string | null; os: string | null }) =>
    [s.browser, s.os].filter(Boolean).join(' · ') || t('push.unknownDevice');
  const subscriptions = list.data?.subscriptions ?? [];
  return (
    <section
      aria-labelledby="push-heading"
      data-testid="push-settings"
      className="mt-6 rounded-lg border border-slate-200 bg-white p-4"
    >
      <h2 id="push-heading" className="text-base font-semibold text-slate-900">
        {t('push.title')}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{t(family ? 'push.leadFamily' : 'push.lead')}</p>
      {subscriptions.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600" data-testid="push-none">
          {t('push.none')}
        </p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-200" data-testid="push-list">
          {subscriptions.map((s) => (
            <li
              key={s.id}
              className="flex flex-wrap items-center justify-between gap-2 py-2"
              data-testid="push-item"
            >
              <div className="min-w-0 text-sm">
                <p className="font-medium break-words text-slate-900">
                  {device(s)}
                  {s.current && (
                    <span className="ml-2 rounded bg-sky-100 px-2 py-0.5 text-xs font-medium text-sky-900">
                      {t('push.thisBrowser')}
                    </span>
                  )}
                </p>
                <p className="text-xs text-slate-600">
                  {t('push.createdAt')} <DateTime at={s.createdAt} />
                  {' · '}
                  {s.lastPushedAt ? (
                    <>
                      {t('push.lastPushedAt')} <DateTime at={s.lastPushedAt} />
                    </>
                  ) : (
                    t('push.neverPushed')
                  )}
                </p>
              </div>
              <Button
                type="button"
                variant="outline"
                disabled={remove.isPending}
                aria-label={t('push.removeNamed', { device: device(s) })}
                onClick={() => {
                  setStatus(null);
                  remove.mutate(s.id, { onSuccess: () => setStatus('removed') });
                }}
                data-testid="push-remove"
              >
                {t('push.remove')}
              </Button>
            </li>
          ))}
        </ul>
      )}
      {(status === 'denied' || status === 'failed' || remove.isError) && (
        <p role="alert" className="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {t(status === 'denied' ? 'push.denied' : 'push.failed')}
        </p>
      )}
      <p role="status" className="mt-3 text-sm text-teal-800" data-testid="push-status">
        {status === 'subscribed'
          ? t('push.subscribed')
          : status === 'removed'
            ? t('push.removed')
            : null}
      </p>
      {!supported ? (
        <p className="mt-3 text-sm text-slate-600" data-testid="push-unsupported">
          {t('push.unsupported')}
        </p>
      ) : here ? (
        <Button
          type="button"
          variant="outline"
          className="mt-3"
          disabled={pending}
          onClick={() => void unsubscribeHere()}
          data-testid="push-unsubscribe"
        >
          {t('push.unsubscribe')}
        </Button>
      ) : (
        <Button
          type="button"
          variant="primary"
          className="mt-3"
          disabled={pending}
          onClick={() => void subscribe()}
          data-testid="push-subscribe"
        >
          {t('push.subscribe')}
        </Button>
      )}
    </section>
  );
}
