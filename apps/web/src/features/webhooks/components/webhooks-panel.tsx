import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_URL_MAX,
  type WebhookEventType,
  type WebhookView,
  webhookUrlProblem,
} from '@wearable/domain';
import { Button } from '../../../components/ui/button';
import { ApiError } from '../../../lib/api-client';
import { useCan } from '../../../lib/use-can';
import {
  useCreateWebhook,
  useDeleteWebhook,
  useRotateWebhookSecret,
  useSendTestWebhook,
  useUpdateWebhook,
} from '../api/change-webhooks';
import { useWebhooks } from '../api/get-webhooks';
import { WebhookDeliveries } from './webhook-deliveries';

const inputClass =
  'mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm focus:border-sky-600 focus:outline-none focus:ring-2 focus:ring-sky-600';
// Event types hold a dot, i18next's key separator: the keys use an underscore.
const eventKey = (type: string) => `webhooks.events.${type.replace('.', '_')}`;
const messageOf = (err: unknown) =>
  err instanceof ApiError ? (err.body?.message ?? err.message) : String(err);

/** A signing secret just made, shown this once with a copy button. */
function NewSecret({ secret, onDone }: { secret: string; onDone: () => void }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  return (
    <div role="status" className="mt-3 rounded-md border border-amber-300 bg-amber-50 p-3">
      <p className="text-sm font-medium text-amber-900">{t('webhooks.secretShownOnce')}</p>
      <code
        data-testid="webhook-secret"
        className="mt-2 block rounded bg-white px-2 py-1 text-sm break-all text-slate-900"
      >
        {secret}
      </code>
      <div className="mt-2 flex flex-wrap gap-2">
        <Button
          type="button"
          variant="outline"
          onClick={() => void navigator.clipboard?.writeText(secret).then(() => setCopied(true))}
        >
          {copied ? t('webhooks.copied') : t('webhooks.copy')}
        </Button>
        <Button type="button" variant="primary" onClick={onDone}>
          {t('webhooks.saved')}
        </Button>
      </div>
    </div>
  );
}

function WebhookItem({
  webhook,
  canManage,
  onSecret,
}: {
  webhook: WebhookView;
  canManage: boolean;
  onSecret: (secret: string) => void;
}) {
  const { t } = useTranslation();
  const [showLog, setShowLog] = useState(false);
  const update = useUpdateWebhook();
  const remove = useDeleteWebhook();
  const rotate = useRotateWebhookSecret();
  const test = useSendTestWebhook();
  const logId = useId();
  const state = webhook.enabled
    ? t('webhooks.enabled')
    : webhook.disabledReason === 'failing'
      ? t('webhooks.disabledFailing')
      : t('webhooks.disabled');
  return (
    <li className="py-3" data-testid="webhook">
      <p className="text-sm font-medium break-all text-slate-900">{webhook.url}</p>
      {webhook.description && <p className="text-sm text-slate-700">{webhook.description}</p>}
      <p className="text-sm text-slate-600">
        <span className={webhook.enabled ? 'text-teal-800' : 'text-red-700'}>{state}</span>
        {' · '}
        {webhook.eventTypes.map((e) => t(eventKey(e))).join(t('webhooks.separator'))}
      </p>
      <div className="mt-2 flex flex-wrap gap-2">
        <Button
          type="button"
          variant="outline"
          aria-expanded={showLog}
          aria-controls={logId}
          onClick={() => setShowLog((s) => !s)}
        >
          {showLog ? t('webhooks.hideLog') : t('webhooks.showLog')}
        </Button>
        {canManage && (
          <>
            <Button
              type="button"
              variant="outline"
              disabled={test.isPending}
              onClick={() => test.mutate(webhook.id, { onSuccess: () => setShowLog(true) })}
            >
              {t('webhooks.sendTest')}
            </Button>
            <Button
              type="button"
              variant="outline"
              disabled={rotate.isPending}
              onClick={() => {
                if (window.confirm(t('webhooks.rotateConfirm')))
                  rotate.mutate(webhook.id, { onSuccess: (r) => onSecret(r.secret) });
              }}
            >
              {t('webhooks.rotate')}
            </Button>
            <Button
              type="button"
              variant="outline"
              disabled={update.isPending}
              onClick={() =>
                update.mutate({ webhookId: webhook.id, body: { enabled: !webhook.enabled } })
              }
            >
              {webhook.enabled ? t('webhooks.disable') : t('webhooks.enable')}
            </Button>
            <Button
              type="button"
              variant="destructive"
              disabled={remove.isPending}
              aria-label={t('webhooks.deleteNamed', { url: webhook.url })}
              onClick={() => {
                if (window.confirm(t('webhooks.deleteConfirm', { url: webhook.url })))
                  remove.mutate(webhook.id);
              }}
            >
              {t('webhooks.delete')}
            </Button>
          </>
        )}
      </div>
      {showLog && (
        <div id={logId}>
          <WebhookDeliveries webhookId={webhook.id} canManage={canManage} />
        </div>
      )}
    </li>
  );
}

function NewWebhookForm({
  organizationId,
  onSecret,
}: {
  organizationId: string;
  onSecret: (secret: string) => void;
}) {
  const { t } = useTranslation();
  const create = useCreateWebhook(organizationId);
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [types, setTypes] = useState<WebhookEventType[]>(['alert.opened']);
  const [invalid, setInvalid] = useState<string | null>(null);
  const ids = { url: useId(), description: useId(), hint: useId() };

  function submit(event: FormEvent) {
    event.preventDefault();
    setInvalid(null);
    if (webhookUrlProblem(url.trim()) !== null) return setInvalid(t('webhooks.errors.url'));
    if (types.length === 0) return setInvalid(t('webhooks.errors.events'));
    create.mutate(
      {
        url: url.trim(),
        eventTypes: types,
        ...(description.trim() ? { description: description.trim() } : {}),
      },
      {
        onSuccess: (made) => {
          onSecret(made.secret);
          setUrl('');
          setDescription('');
        },
        onError: (err) => setInvalid(messageOf(err)),
      },
    );
  }

  return (
    <form className="mt-4 max-w-lg space-y-3" onSubmit={submit} noValidate>
      <h2 className="text-base font-semibold text-slate-900">{t('webhooks.new')}</h2>
      <div>
        <label htmlFor={ids.url} className="text-sm font-medium text-slate-700">
          {t('webhooks.url')}
        </label>
        <input
          id={ids.url}
          className={inputClass}
          type="url"
          inputMode="url"
          placeholder="https://"
          aria-describedby={ids.hint}
          maxLength={WEBHOOK_URL_MAX}
          value={url}
          onChange={(e) => setUrl(e.target.value)}
        />
        <p id={ids.hint} className="mt-1 text-xs text-slate-600">
          {t('webhooks.urlHint')}
        </p>
      </div>
      <div>
        <label htmlFor={ids.description} className="text-sm font-medium text-slate-700">
          {t('webhooks.description')}
        </label>
        <input
          id={ids.description}
          className={inputClass}
          maxLength={200}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
        />
      </div>
      <fieldset>
        <legend className="text-sm font-medium text-slate-700">{t('webhooks.eventTypes')}</legend>
        <div className="mt-1 grid gap-1 sm:grid-cols-2">
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <label key={type} className="flex items-center gap-2 text-sm text-slate-800">
              <input
                type="checkbox"
                checked={types.includes(type)}
                onChange={(e) =>
                  setTypes((s) => (e.target.checked ? [...s, type] : s.filter((x) => x !== type)))
                }
              />
              <span>{t(eventKey(type))}</span>
            </label>
          ))}
        </div>
      </fieldset>
      {invalid !== null && (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm break-words text-red-800">
          {invalid}
        </p>
      )}
      <Button type="submit" variant="primary" disabled={create.isPending}>
        {t('webhooks.create')}
      </Button>
    </form>
  );
}

/** An organisation's webhook endpoints and their delivery logs (docs/webhooks.md). */
export function WebhooksPanel({ organizationId }: { organizationId: string }) {
  const { t } = useTranslation();
  const canManage = useCan('webhook:manage', { organizationId });
  const list = useWebhooks(organizationId);
  const [secret, setSecret] = useState<string | null>(null);
  if (!list.data) return <p className="text-sm text-slate-600">{t('webhooks.loading')}</p>;
  const { webhooks } = list.data;
  return (
    <div data-testid="webhooks" className="rounded-lg border border-slate-200 bg-white p-4">
      <p className="text-sm text-slate-600">{t('webhooks.lead')}</p>
      {secret !== null && <NewSecret secret={secret} onDone={() => setSecret(null)} />}
      {webhooks.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600">{t('webhooks.none')}</p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-100" aria-label={t('webhooks.listLabel')}>
          {webhooks.map((w) => (
            <WebhookItem key={w.id} webhook={w} canManage={canManage} onSecret={setSecret} />
          ))}
        </ul>
      )}
      {canManage && secret === null && (
        <NewWebhookForm organizationId={organizationId} onSecret={setSecret} />
      )}
    </div>
  );
}
