import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { PasskeyList } from '@wearable/domain';
import { Button } from '../../../components/ui/button';
import { DateTime } from '../../../components/ui/date-time';
import {
  deletePasskey,
  fetchPasskeys,
  passkeyRegistrationOptions,
  savePasskey,
} from '../api/passkeys-api';
import { ceremonyErrorKey, createPasskey, passkeysSupported } from '../lib/passkey-ceremony';
import { inputClass } from './sign-in-form-parts';

/** Refusals explained in the reader's language; any other reads as the generic one. */
const KNOWN_ERRORS = [
  'PASSKEY_CHALLENGE_INVALID',
  'PASSKEY_VERIFICATION_FAILED',
  'PASSKEY_ALREADY_REGISTERED',
  'SECOND_FACTOR_REQUIRED_BY_ORGANIZATION',
  'VALIDATION_FAILED',
];

/**
 * The signed-in person's passkeys (/user/info): each by the name they gave it, when it was added and
 * last used, and a button to remove it; a name and a button to add one. Tells staff whose organisation
 * requires a second factor that they have none yet, and by when to add one.
 */
export function PasskeySettings() {
  const { t } = useTranslation();
  const nameId = useId();
  const [list, setList] = useState<PasskeyList | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const reload = async () => {
    const result = await fetchPasskeys();
    if (result.ok) setList(result.data);
  };
  useEffect(() => {
    void fetchPasskeys().then((result) => {
      if (result.ok) setList(result.data);
    });
  }, []);

  const fail = (code: string | undefined) =>
    setError(
      t(
        code !== undefined && KNOWN_ERRORS.includes(code)
          ? `passkeys.errors.${code}`
          : 'passkeys.errors.generic',
      ),
    );

  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const value = new FormData(form).get('name');
    const name = typeof value === 'string' ? value.trim() : '';
    setError(null);
    setDone(null);
    if (name === '') return setError(t('passkeys.errors.nameMissing'));
    setPending(true);
    try {
      const options = await passkeyRegistrationOptions();
      if (!options.ok) return fail(options.data?.code);
      let response;
      try {
        response = await createPasskey(options.data);
      } catch (err) {
        return setError(t(ceremonyErrorKey(err)));
      }
      const saved = await savePasskey({ name, response });
      if (!saved.ok) return fail(saved.data?.code);
      form.reset();
      setDone(t('passkeys.added', { name: saved.data.name }));
      await reload();
    } finally {
      setPending(false);
    }
  }

  async function remove(id: string, name: string) {
    setError(null);
    setDone(null);
    const result = await deletePasskey(id);
    if (!result.ok) return fail(result.data?.code);
    setDone(t('passkeys.removed', { name }));
    await reload();
  }

  if (list === null) return null;
  const { secondFactor } = list;
  return (
    <section
      aria-labelledby="passkeys-heading"
      data-testid="passkey-settings"
      className="mt-6 rounded-lg border border-slate-200 bg-white p-4"
    >
      <h2 id="passkeys-heading" className="text-base font-semibold text-slate-900">
        {t('passkeys.settingsTitle')}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{t('passkeys.lead')}</p>
      {secondFactor.required && !secondFactor.enrolled && (
        <p
          className="mt-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900"
          data-testid="second-factor-reminder"
        >
          {secondFactor.enrolBy ? (
            <>
              {t('passkeys.enrolBy')} <DateTime at={secondFactor.enrolBy} />
            </>
          ) : (
            t('passkeys.enrolNow')
          )}
        </p>
      )}
      {list.passkeys.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600" data-testid="passkeys-none">
          {t('passkeys.none')}
        </p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-200" data-testid="passkeys-list">
          {list.passkeys.map((passkey) => (
            <li
              key={passkey.id}
              className="flex flex-wrap items-center justify-between gap-2 py-2"
              data-testid="passkey-item"
            >
              <div className="min-w-0">
                <p className="font-medium break-words text-slate-900">{passkey.name}</p>
                <p className="text-xs text-slate-600">
                  {t('passkeys.createdAt')} <DateTime at={passkey.createdAt} />
                  {' · '}
                  {passkey.lastUsedAt ? (
                    <>
                      {t('passkeys.lastUsedAt')} <DateTime at={passkey.lastUsedAt} />
                    </>
                  ) : (
                    t('passkeys.neverUsed')
                  )}
                </p>
              </div>
              <Button
                type="button"
                variant="outline"
                aria-label={t('passkeys.removeNamed', { name: passkey.name })}
                onClick={() => void remove(passkey.id, passkey.name)}
                data-testid="passkey-remove"
              >
                {t('passkeys.remove')}
              </Button>
            </li>
          ))}
        </ul>
      )}
      {error !== null && (
        <p role="alert" className="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {error}
        </p>
      )}
      <p role="status" className="mt-3 text-sm text-teal-800" data-testid="passkeys-status">
        {done}
      </p>
      {passkeysSupported() ? (
        <form
          className="mt-3 flex max-w-md flex-col gap-3 sm:flex-row sm:items-end"
          onSubmit={(event) => void add(event)}
          noValidate
        >
          <label htmlFor={nameId} className="block flex-1 text-sm font-medium text-slate-700">
            {t('passkeys.name')}
            <input
              id={nameId}
              name="name"
              type="text"
              maxLength={60}
              required
              placeholder={t('passkeys.namePlaceholder')}
              className={inputClass}
              data-testid="passkey-name"
            />
          </label>
          <Button type="submit" variant="primary" disabled={pending} data-testid="passkey-add">
            {t('passkeys.add')}
          </Button>
        </form>
      ) : (
        <p className="mt-3 text-sm text-slate-600">{t('passkeys.unsupported')}</p>
      )}
    </section>
  );
}
