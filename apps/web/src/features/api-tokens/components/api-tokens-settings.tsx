import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { API_TOKEN_MAX_DAYS, type CreatedApiToken, type Permission } from '@wearable/domain';
import { Button } from '../../../components/ui/button';
import { DateTime } from '../../../components/ui/date-time';
import { ApiError } from '../../../lib/api-client';
import { useCan } from '../../../lib/use-can';
import { useApiTokens, useCreateApiToken, useRevokeApiToken } from '../api/api-tokens-api';

const inputClass =
  'mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm focus:border-sky-600 focus:outline-none focus:ring-2 focus:ring-sky-600';

/** The token just made, shown this once with a copy button. */
function NewToken({ made, onDone }: { made: CreatedApiToken; onDone: () => void }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  return (
    <div role="status" className="mt-4 rounded-md border border-amber-300 bg-amber-50 p-3">
      <p className="text-sm font-medium text-amber-900">{t('apiTokens.shownOnce')}</p>
      <code
        data-testid="api-token-value"
        className="mt-2 block rounded bg-white px-2 py-1 text-sm break-all text-slate-900"
      >
        {made.token}
      </code>
      <div className="mt-2 flex flex-wrap gap-2">
        <Button
          type="button"
          variant="outline"
          onClick={() =>
            void navigator.clipboard?.writeText(made.token).then(() => setCopied(true))
          }
        >
          {copied ? t('apiTokens.copied') : t('apiTokens.copy')}
        </Button>
        <Button type="button" variant="primary" onClick={onDone}>
          {t('apiTokens.saved')}
        </Button>
      </div>
    </div>
  );
}

/**
 * /user/info, for staff: personal API tokens for scripts. A token acts as its owner within the
 * scopes chosen here (never token or people management: the server offers only what may be given).
 */
export function ApiTokensSettings() {
  const { t } = useTranslation();
  const allowed = useCan('apiToken:manage');
  const list = useApiTokens(allowed);
  const create = useCreateApiToken();
  const revoke = useRevokeApiToken();
  const [made, setMade] = useState<CreatedApiToken | null>(null);
  const [name, setName] = useState('');
  const [days, setDays] = useState('90');
  const [scopes, setScopes] = useState<Permission[]>(['alert:read']);
  const [invalid, setInvalid] = useState<string | null>(null);
  const ids = { name: useId(), days: useId(), scopes: useId() };
  // Permission codes hold a colon, i18next's namespace separator: the keys use an underscore.
  const scopeLabel = (scope: string) =>
    t(`apiTokens.scopeLabels.${scope.replace(':', '_')}`, { defaultValue: scope });
  if (!allowed || !list.data) return null;
  const { tokens, grantableScopes } = list.data;

  function submit(event: FormEvent) {
    event.preventDefault();
    setInvalid(null);
    const expiresInDays = Number(days);
    if (!name.trim()) return setInvalid(t('apiTokens.errors.name'));
    if (!Number.isInteger(expiresInDays) || expiresInDays < 1 || expiresInDays > API_TOKEN_MAX_DAYS)
      return setInvalid(t('apiTokens.errors.days', { max: API_TOKEN_MAX_DAYS }));
    if (scopes.length === 0) return setInvalid(t('apiTokens.errors.scopes'));
    create.mutate(
      { name: name.trim(), expiresInDays, scopes },
      {
        onSuccess: (created) => {
          setMade(created);
          setName('');
        },
        onError: (err) =>
          setInvalid(err instanceof ApiError ? (err.body?.message ?? err.message) : String(err)),
      },
    );
  }

  return (
    <section
      aria-labelledby="api-tokens-heading"
      data-testid="api-tokens"
      className="mt-6 rounded-lg border border-slate-200 bg-white p-4"
    >
      <h2 id="api-tokens-heading" className="text-base font-semibold text-slate-900">
        {t('apiTokens.title')}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{t('apiTokens.lead')}</p>

      {tokens.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600">{t('apiTokens.none')}</p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-100" aria-label={t('apiTokens.listLabel')}>
          {tokens.map((token) => (
            <li key={token.id} className="flex flex-wrap items-start justify-between gap-2 py-2">
              <div className="min-w-0 text-sm">
                <p className="font-medium break-all text-slate-900">{token.name}</p>
                <p className="text-slate-600 break-all">
                  {token.scopes.map((scope) => scopeLabel(scope)).join(t('apiTokens.separator'))}
                </p>
                <p className="text-slate-600">
                  {t('apiTokens.expires')} <DateTime at={token.expiresAt} />
                  {' · '}
                  {t('apiTokens.lastUsed')}{' '}
                  {token.lastUsedAt ? <DateTime at={token.lastUsedAt} /> : t('apiTokens.never')}
                </p>
              </div>
              {token.revokedAt ? (
                <span className="text-sm text-slate-600">{t('apiTokens.revoked')}</span>
              ) : (
                <Button
                  type="button"
                  variant="outline"
                  aria-label={t('apiTokens.revokeNamed', { name: token.name })}
                  disabled={revoke.isPending}
                  onClick={() => {
                    if (window.confirm(t('apiTokens.revokeConfirm', { name: token.name })))
                      revoke.mutate(token.id);
                  }}
                >
                  {t('apiTokens.revoke')}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}

      {made ? (
        <NewToken made={made} onDone={() => setMade(null)} />
      ) : (
        <form className="mt-4 max-w-lg space-y-3" onSubmit={submit} noValidate>
          <h3 className="text-sm font-semibold text-slate-900">{t('apiTokens.new')}</h3>
          <div>
            <label htmlFor={ids.name} className="text-sm font-medium text-slate-700">
              {t('apiTokens.name')}
            </label>
            <input
              id={ids.name}
              className={inputClass}
              value={name}
              maxLength={100}
              onChange={(e) => setName(e.target.value)}
            />
          </div>
          <div>
            <label htmlFor={ids.days} className="text-sm font-medium text-slate-700">
              {t('apiTokens.days', { max: API_TOKEN_MAX_DAYS })}
            </label>
            <input
              id={ids.days}
              className={inputClass}
              type="number"
              inputMode="numeric"
              min={1}
              max={API_TOKEN_MAX_DAYS}
              value={days}
              onChange={(e) => setDays(e.target.value)}
            />
          </div>
          <fieldset>
            <legend id={ids.scopes} className="text-sm font-medium text-slate-700">
              {t('apiTokens.scopes')}
            </legend>
            <div className="mt-1 grid gap-1 sm:grid-cols-2">
              {grantableScopes.map((scope) => (
                <label key={scope} className="flex items-center gap-2 text-sm text-slate-800">
                  <input
                    type="checkbox"
                    checked={scopes.includes(scope)}
                    onChange={(e) =>
                      setScopes((s) =>
                        e.target.checked ? [...s, scope] : s.filter((x) => x !== scope),
                      )
                    }
                  />
                  <span>
                    {scopeLabel(scope)}{' '}
                    <code className="text-xs break-all text-slate-600">{scope}</code>
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
          {invalid !== null && (
            <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
              {invalid}
            </p>
          )}
          <Button type="submit" variant="primary" disabled={create.isPending}>
            {t('apiTokens.create')}
          </Button>
        </form>
      )}
    </section>
  );
}
