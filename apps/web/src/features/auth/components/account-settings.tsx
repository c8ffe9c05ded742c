import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import {
  emailChangeBody,
  passwordChangeBody,
  phoneVerifyBody,
  phoneVerifyCodeBody,
  updateUserRequest,
} from '@wearable/domain';
import { Button } from '../../../components/ui/button';
import { DateTime } from '../../../components/ui/date-time';
import { paths } from '../../../config/paths';
import { useIsDemo } from '../../../lib/app-path';
import { session } from '../../../lib/session';
import { ApiError } from '../../../lib/api-client';
import {
  signOutEverywhere,
  useAccount,
  useChangePassword,
  useEndSession,
  useRename,
  useRequestEmailChange,
  useSendPhoneCode,
  useSessions,
  useVerifyPhone,
} from '../api/account-api';

/** Refusals the page explains in the reader's language; any other shows the server's own message. */
const KNOWN = [
  'PHONE_TAKEN',
  'PHONE_ALREADY_VERIFIED',
  'INVALID_CODE',
  'SMS_FAILED',
  'EMAIL_TAKEN',
  'EMAIL_UNCHANGED',
  'WRONG_PASSWORD',
  'TOO_MANY_ATTEMPTS',
  'SESSION_NOT_FOUND',
];

function Failure({ error, invalid }: { error: unknown; invalid?: string | null }) {
  const { t } = useTranslation();
  if (invalid)
    return (
      <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
        {invalid}
      </p>
    );
  if (!error) return null;
  const body = error instanceof ApiError ? error.body : null;
  const code = body?.code ?? '';
  const text = KNOWN.includes(code)
    ? t(`account.errors.${code}`)
    : (body?.message ?? t('account.errors.generic'));
  return (
    <p
      role="alert"
      data-testid="account-failure"
      className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800"
    >
      {text}
    </p>
  );
}

function Done({ children }: { children: ReactNode }) {
  return (
    <p role="status" className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
      {children}
    </p>
  );
}

function Field(props: {
  label: string;
  name: string;
  type?: string;
  autoComplete?: string;
  defaultValue?: string;
  hint?: string;
  inputMode?: 'numeric' | 'tel' | 'email';
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {props.label}
      </label>
      <input
        id={id}
        name={props.name}
        type={props.type ?? 'text'}
        autoComplete={props.autoComplete}
        defaultValue={props.defaultValue}
        inputMode={props.inputMode}
        aria-describedby={props.hint ? hintId : undefined}
        className="block min-h-11 w-full rounded-md border border-slate-300 px-3 text-sm text-slate-900 focus:border-sky-600 focus:ring-2 focus:ring-sky-600 focus:outline-none"
      />
      {props.hint && (
        <p id={hintId} className="text-xs text-slate-600">
          {props.hint}
        </p>
      )}
    </div>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section
      aria-labelledby={id}
      data-testid={id}
      className="mt-6 rounded-lg border border-slate-200 bg-white p-4"
    >
      <h2 id={id} className="text-base font-semibold text-slate-900">
        {title}
      </h2>
      <div className="mt-3 space-y-3">{children}</div>
    </section>
  );
}

const text = (form: HTMLFormElement, name: string) => {
  const value = new FormData(form).get(name);
  return typeof value === 'string' ? value : '';
};

function NameSection({ name }: { name: string }) {
  const { t } = useTranslation();
  const rename = useRename();
  const [invalid, setInvalid] = useState<string | null>(null);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = { name: text(event.currentTarget, 'name') };
    if (!updateUserRequest.safeParse(body).success) return setInvalid(t('account.invalid.name'));
    setInvalid(null);
    await rename.mutateAsync(body.name).catch(() => undefined);
  }
  return (
    <Section id="account-name" title={t('account.name.title')}>
      <form className="max-w-md space-y-3" noValidate onSubmit={(e) => void submit(e)}>
        <Field
          label={t('account.name.label')}
          name="name"
          autoComplete="name"
          defaultValue={name}
        />
        <Failure error={rename.error} invalid={invalid} />
        {rename.isSuccess && <Done>{t('account.name.saved')}</Done>}
        <Button type="submit" variant="primary" disabled={rename.isPending}>
          {t('account.save')}
        </Button>
      </form>
    </Section>
  );
}

function PhoneSection({
  phoneNumber,
  verified,
}: {
  phoneNumber: string | null;
  verified: boolean;
}) {
  const { t, i18n } = useTranslation();
  const send = useSendPhoneCode();
  const verify = useVerifyPhone();
  const [invalid, setInvalid] = useState<string | null>(null);
  const sentTo = send.data?.sentTo ?? null;
  async function ask(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = {
      phoneNumber: text(event.currentTarget, 'phoneNumber').replace(/[\s-]/g, ''),
      locale: i18n.resolvedLanguage === 'en' ? ('en' as const) : ('ja' as const),
    };
    if (!phoneVerifyCodeBody.safeParse(body).success)
      return setInvalid(t('account.invalid.phoneNumber'));
    setInvalid(null);
    verify.reset();
    await send.mutateAsync(body).catch(() => undefined);
  }
  async function confirm(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = { phoneNumber: sentTo ?? '', code: text(event.currentTarget, 'code').trim() };
    if (!phoneVerifyBody.safeParse(body).success) return setInvalid(t('account.invalid.code'));
    setInvalid(null);
    if (
      await verify.mutateAsync(body).then(
        () => true,
        () => false,
      )
    )
      send.reset();
  }
  return (
    <Section id="account-phone" title={t('account.phone.title')}>
      <p className="text-sm text-slate-700" data-testid="account-phone-now">
        {phoneNumber
          ? `${phoneNumber} (${t(verified ? 'account.phone.verified' : 'account.phone.unverified')})`
          : t('account.phone.none')}
      </p>
      {verify.isSuccess && <Done>{t('account.phone.saved')}</Done>}
      {sentTo === null ? (
        <form className="max-w-md space-y-3" noValidate onSubmit={(e) => void ask(e)}>
          <Field
            label={t('account.phone.label')}
            name="phoneNumber"
            type="tel"
            inputMode="tel"
            autoComplete="tel"
            hint={t('account.phone.hint')}
          />
          <Failure error={send.error} invalid={invalid} />
          <Button type="submit" variant="primary" disabled={send.isPending}>
            {t('account.phone.send')}
          </Button>
        </form>
      ) : (
        <form className="max-w-md space-y-3" noValidate onSubmit={(e) => void confirm(e)}>
          <Done>{t('account.phone.sent', { number: sentTo })}</Done>
          <Field
            label={t('account.phone.code')}
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
          />
          <Failure error={verify.error} invalid={invalid} />
          <div className="flex flex-wrap gap-2">
            <Button type="submit" variant="primary" disabled={verify.isPending}>
              {t('account.phone.confirm')}
            </Button>
            <Button
              type="button"
              variant="ghost"
              onClick={() => (send.reset(), verify.reset(), setInvalid(null))}
            >
              {t('account.cancel')}
            </Button>
          </div>
        </form>
      )}
    </Section>
  );
}

function EmailSection({ email, verified }: { email: string | null; verified: boolean }) {
  const { t, i18n } = useTranslation();
  const change = useRequestEmailChange();
  const [invalid, setInvalid] = useState<string | null>(null);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = {
      email: text(event.currentTarget, 'email').trim(),
      locale: i18n.resolvedLanguage === 'en' ? ('en' as const) : ('ja' as const),
    };
    if (!emailChangeBody.safeParse(body).success) return setInvalid(t('account.invalid.email'));
    setInvalid(null);
    await change.mutateAsync(body).catch(() => undefined);
  }
  return (
    <Section id="account-email" title={t('account.email.title')}>
      <p className="text-sm break-all text-slate-700" data-testid="account-email-now">
        {email
          ? `${email} (${t(verified ? 'account.email.verified' : 'account.email.unverified')})`
          : t('account.email.none')}
      </p>
      <form className="max-w-md space-y-3" noValidate onSubmit={(e) => void submit(e)}>
        <Field
          label={t('account.email.label')}
          name="email"
          type="email"
          inputMode="email"
          autoComplete="email"
          hint={t('account.email.hint')}
        />
        <Failure error={change.error} invalid={invalid} />
        {change.data && <Done>{t('account.email.sent', { email: change.data.sentTo })}</Done>}
        <Button type="submit" variant="primary" disabled={change.isPending}>
          {t('account.email.send')}
        </Button>
      </form>
    </Section>
  );
}

function PasswordSection() {
  const { t } = useTranslation();
  const change = useChangePassword();
  const [invalid, setInvalid] = useState<string | null>(null);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const body = {
      currentPassword: text(form, 'currentPassword'),
      newPassword: text(form, 'newPassword'),
    };
    const checked = passwordChangeBody.safeParse(body);
    if (!checked.success) {
      const field = String(checked.error.issues[0]?.path[0] ?? 'newPassword');
      return setInvalid(
        t(
          field === 'currentPassword'
            ? 'account.invalid.currentPassword'
            : body.newPassword === body.currentPassword
              ? 'account.invalid.samePassword'
              : 'account.invalid.newPassword',
        ),
      );
    }
    setInvalid(null);
    if (
      await change.mutateAsync(body).then(
        () => true,
        () => false,
      )
    )
      form.reset();
  }
  return (
    <Section id="account-password" title={t('account.password.title')}>
      <form className="max-w-md space-y-3" noValidate onSubmit={(e) => void submit(e)}>
        <Field
          label={t('account.password.current')}
          name="currentPassword"
          type="password"
          autoComplete="current-password"
        />
        <Field
          label={t('account.password.new')}
          name="newPassword"
          type="password"
          autoComplete="new-password"
          hint={t('account.password.hint')}
        />
        <Failure error={change.error} invalid={invalid} />
        {change.data && <Done>{t('account.password.saved', { count: change.data.ended })}</Done>}
        <Button type="submit" variant="primary" disabled={change.isPending}>
          {t('account.password.save')}
        </Button>
      </form>
    </Section>
  );
}

function SessionsSection() {
  const { t } = useTranslation();
  const sessions = useSessions();
  const end = useEndSession();
  const navigate = useNavigate();
  const [everywhere, setEverywhere] = useState<{ pending: boolean; failed: boolean }>({
    pending: false,
    failed: false,
  });
  async function leaveEverywhere() {
    setEverywhere({ pending: true, failed: false });
    const result = await signOutEverywhere();
    if (!result.ok) return setEverywhere({ pending: false, failed: true });
    // This session ended with the others: forget it here and go to the sign-in page.
    session.end();
    await navigate(paths.login.build(), { replace: true });
  }
  const device = (s: { browser: string | null; os: string | null }) =>
    [s.browser, s.os].filter(Boolean).join(' · ') || t('account.sessions.unknownDevice');
  return (
    <Section id="account-sessions" title={t('account.sessions.title')}>
      <p className="text-sm text-slate-600">{t('account.sessions.help')}</p>
      {sessions.data && (
        <ul
          className="divide-y divide-slate-100 rounded-md border border-slate-200"
          data-testid="session-list"
        >
          {sessions.data.map((s) => (
            <li
              key={s.id}
              className="flex flex-wrap items-center justify-between gap-3 px-3 py-3"
              data-testid="session-row"
            >
              <div className="min-w-0 text-sm">
                <p className="font-medium text-slate-900">
                  {device(s)}
                  {s.current && (
                    <span
                      className="ml-2 rounded bg-sky-100 px-2 py-0.5 text-xs font-medium text-sky-900"
                      data-testid="session-current"
                    >
                      {t('account.sessions.current')}
                    </span>
                  )}
                </p>
                <p className="text-slate-600">
                  {t('account.sessions.created')} <DateTime at={s.createdAt} /> ·{' '}
                  {t('account.sessions.lastUsed')} <DateTime at={s.lastUsedAt} />
                </p>
              </div>
              {!s.current && (
                <Button
                  type="button"
                  variant="outline"
                  disabled={end.isPending}
                  onClick={() => end.mutate(s.id)}
                  aria-label={t('account.sessions.endOne', { device: device(s) })}
                >
                  {t('account.sessions.end')}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      <Failure error={end.error} />
      {everywhere.failed && <Failure error={new Error('failed')} />}
      <Button
        type="button"
        variant="destructive"
        disabled={everywhere.pending}
        onClick={() => void leaveEverywhere()}
        data-testid="sign-out-everywhere"
      >
        {t('account.sessions.everywhere')}
      </Button>
    </Section>
  );
}

/** /user/info: own name, phone (SMS code), address (link), password and sessions. Read-only in the demo. */
export function AccountSettings() {
  const account = useAccount();
  const demo = useIsDemo();
  if (demo || !account.data) return null;
  const a = account.data;
  return (
    <>
      <NameSection name={a.name} />
      <EmailSection email={a.email} verified={a.emailVerified} />
      <PhoneSection phoneNumber={a.phoneNumber} verified={a.phoneVerified} />
      {a.hasPassword && <PasswordSection />}
      <SessionsSection />
    </>
  );
}
