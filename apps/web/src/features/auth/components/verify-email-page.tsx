import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { confirmEmailChange } from '../api/account-api';
import { SignInCard } from './sign-in-card';

const ERRORS = ['LINK_USED', 'LINK_EXPIRED', 'LINK_UNKNOWN', 'EMAIL_TAKEN'];

/**
 * /verify-email#token=…: the link mailed to a new address (from /user/info). Outside the guard, so it works
 * signed in or out and on another device; the token is read once and removed from the address bar.
 */
export function VerifyEmailPage() {
  const { t } = useTranslation();
  const [token] = useState(() => /^#token=([\w-]+)$/.exec(window.location.hash)?.[1] ?? null);
  const [state, setState] = useState<{ email: string } | { failure: string } | null>(null);
  const started = useRef(false);
  useEffect(() => {
    if (window.location.hash) window.history.replaceState(null, '', window.location.pathname);
    if (token === null || started.current) return;
    started.current = true;
    void confirmEmailChange(token).then((result) => {
      if (result.ok) setState({ email: result.data.email });
      else
        setState({
          failure: ERRORS.includes(result.data?.code ?? '')
            ? (result.data?.code ?? 'generic')
            : 'generic',
        });
    });
  }, [token]);

  const back = (
    <a
      href={paths.user.info.build()}
      className="mt-6 inline-block text-sm text-teal-700 underline-offset-4 hover:underline"
    >
      {t('verifyEmail.toAccount')}
    </a>
  );
  if (token === null || (state !== null && 'failure' in state)) {
    const code = token === null ? 'LINK_UNKNOWN' : (state as { failure: string }).failure;
    return (
      <SignInCard title={t(`verifyEmail.errors.${code}.title`)}>
        <p
          role="alert"
          data-testid="verify-email-error"
          data-code={code}
          className="mt-2 text-sm text-slate-700"
        >
          {t(`verifyEmail.errors.${code}.body`)}
        </p>
        {back}
      </SignInCard>
    );
  }
  if (state === null) {
    return (
      <SignInCard title={t('verifyEmail.title')}>
        <Spinner label={t('verifyEmail.working')} />
      </SignInCard>
    );
  }
  return (
    <SignInCard title={t('verifyEmail.doneTitle')}>
      <p
        role="status"
        data-testid="verify-email-done"
        className="mt-2 text-sm break-all text-slate-700"
      >
        {t('verifyEmail.done', { email: state.email })}
      </p>
      {back}
    </SignInCard>
  );
}
