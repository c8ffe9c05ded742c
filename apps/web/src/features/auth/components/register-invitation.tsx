import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import {
  type InvitationPreview,
  type MfaChallenge,
  MIN_PASSWORD_LENGTH,
  registerBody,
  type RegisterBody,
} from '@wearable/domain';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { AppLink } from '../../../lib/app-path';
import { inspectInvitation, registerByInvitation } from '../api/invitation-api';
import { useFinishSignIn } from '../hooks/use-finish-sign-in';
import { formText, inputClass, localeOf } from './sign-in-form-parts';
import { SignInCard } from './sign-in-card';
import { SecondFactorStep } from './second-factor-step';

/** Links that cannot be used, each with its own page. */
const LINK_CODES = [
  'INVITATION_UNKNOWN',
  'INVITATION_USED',
  'INVITATION_EXPIRED',
  'INVITATION_REPLACED',
  'INVITATION_OTHER_ADDRESS',
];
const fieldOf = (path: readonly PropertyKey[] | string) => {
  const parts = typeof path === 'string' ? path.split('.') : path.map(String);
  return (parts[0] === 'body' ? parts[1] : parts[0]) ?? '';
};

/** /verify#invite=…: who invited whom, then name, password and consent; registering signs the person in. */
export function RegisterInvitation({ token }: { token: string }) {
  const { t, i18n } = useTranslation();
  const finish = useFinishSignIn();
  const navigate = useNavigate();
  const [preview, setPreview] = useState<InvitationPreview | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [invalid, setInvalid] = useState<Set<string>>(new Set());
  const [serverMessage, setServerMessage] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [challenge, setChallenge] = useState<MfaChallenge | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void (async () => {
      const result = await inspectInvitation(token);
      if (result.ok) {
        // The inviter chose the invitee's language for the mail; the page they open speaks it too.
        const locale = result.data.locale;
        if (locale && locale !== i18n.language) await i18n.changeLanguage(locale);
        return setPreview(result.data);
      }
      const code = result.data?.code ?? '';
      setFailure(LINK_CODES.includes(code) ? code : 'generic');
    })();
  }, [token, i18n]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (preview === null) return;
    const form = event.currentTarget;
    const body: RegisterBody = {
      token,
      email: preview.email,
      name: formText(form, 'name').trim(),
      password: formText(form, 'password'),
      agreedToTerms: (new FormData(form).get('terms') === 'on') as true,
      locale: localeOf(i18n.language),
    };
    const checked = registerBody.safeParse(body);
    const fields = new Set(checked.success ? [] : checked.error.issues.map((i) => fieldOf(i.path)));
    setInvalid(fields);
    setServerMessage(null);
    if (fields.size > 0) return;
    setPending(true);
    const result = await registerByInvitation(body);
    setPending(false);
    if (!result.ok) {
      const code = result.data?.code ?? '';
      if (LINK_CODES.includes(code)) return setFailure(code);
      setInvalid(new Set((result.data?.issues ?? []).map((i) => fieldOf(i.path))));
      return setServerMessage(
        code === 'EMAIL_TAKEN'
          ? t('register.errors.EMAIL_TAKEN')
          : (result.data?.message ?? t('register.errors.generic')),
      );
    }
    if ('mfaRequired' in result.data) return setChallenge(result.data);
    // A new organisation's owner lands on its setup checklist (issue 35).
    const home = preview.role === 'ORGANIZATION_OWNER' ? paths.setup.build() : undefined;
    if (!(await finish(result.data, home))) setFailure('generic');
  }

  if (challenge !== null) {
    return (
      <SignInCard title={t('login.title')}>
        <div className="mt-6">
          <SecondFactorStep
            challenge={challenge}
            onRestart={() => void navigate(paths.login.build(), { replace: true })}
          />
        </div>
      </SignInCard>
    );
  }
  if (failure !== null) {
    return (
      <SignInCard title={t(`register.errors.${failure}.title`)}>
        <p
          role="alert"
          data-testid="verify-error"
          data-code={failure}
          className="mt-2 text-sm text-slate-700"
        >
          {t(`register.errors.${failure}.body`)}
        </p>
        <AppLink
          to={paths.login.build()}
          className="mt-6 inline-block text-sm text-teal-700 underline-offset-4 hover:underline"
        >
          {t('verify.backToLogin')}
        </AppLink>
      </SignInCard>
    );
  }
  if (preview === null) {
    return (
      <SignInCard title={t('register.title')}>
        <Spinner label={t('common.loading')} />
      </SignInCard>
    );
  }
  const error = (field: string, key: string) =>
    invalid.has(field) ? (
      <span role="alert" className="mt-1 block text-sm font-normal text-red-700">
        {t(key, { min: MIN_PASSWORD_LENGTH })}
      </span>
    ) : null;
  return (
    <SignInCard title={t('register.title')}>
      <p className="mt-2 text-sm text-slate-700" data-testid="invitation-summary">
        {preview.wearerName
          ? t('register.familyLead', {
              inviter: preview.inviterName ?? '',
              wearer: preview.wearerName,
            })
          : t('register.lead', {
              inviter: preview.inviterName ?? '',
              organization: preview.organizationName ?? t('register.platform'),
              role: t(`roles.${preview.role}`),
            })}
      </p>
      <form className="mt-6 space-y-4" onSubmit={(event) => void submit(event)} noValidate>
        <label className="block text-sm font-medium text-slate-700">
          {t('login.email')}
          <input
            name="email"
            type="email"
            value={preview.email}
            readOnly
            autoComplete="username"
            className={`${inputClass} bg-slate-50`}
          />
        </label>
        <label className="block text-sm font-medium text-slate-700">
          {t('register.name')}
          <input
            name="name"
            autoComplete="name"
            // The name the inviter typed, to correct if need be (issue 35).
            defaultValue={preview.name ?? ''}
            maxLength={100}
            required
            aria-invalid={invalid.has('name')}
            className={inputClass}
            data-testid="register-name"
          />
          {error('name', 'register.errors.name')}
        </label>
        <label className="block text-sm font-medium text-slate-700">
          {t('register.password')}
          <input
            name="password"
            type="password"
            autoComplete="new-password"
            minLength={MIN_PASSWORD_LENGTH}
            required
            aria-invalid={invalid.has('password')}
            aria-describedby="register-password-hint"
            className={inputClass}
            data-testid="register-password"
          />
          <span
            id="register-password-hint"
            className="mt-1 block text-xs font-normal text-slate-500"
          >
            {t('register.passwordHint', { min: MIN_PASSWORD_LENGTH })}
          </span>
          {error('password', 'register.errors.password')}
        </label>
        <label className="flex items-start gap-2 text-sm text-slate-700">
          <input
            name="terms"
            type="checkbox"
            className="mt-0.5 size-4"
            aria-invalid={invalid.has('agreedToTerms')}
            data-testid="register-terms"
          />
          <span>
            {t('register.consent')}{' '}
            <a
              href={paths.legal.terms.build()}
              target="_blank"
              rel="noopener noreferrer"
              className="text-teal-700 underline"
            >
              {t('footer.terms')}
            </a>
          </span>
        </label>
        {error('agreedToTerms', 'register.errors.agreedToTerms')}
        {serverMessage !== null && (
          <p
            role="alert"
            data-testid="register-error"
            className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800"
          >
            {serverMessage}
          </p>
        )}
        <Button
          type="submit"
          variant="primary"
          className="w-full"
          disabled={pending}
          data-testid="register-submit"
        >
          {t('register.submit')}
        </Button>
      </form>
    </SignInCard>
  );
}
