import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { MfaChallenge } from '@wearable/domain';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { AppLink } from '../../../lib/app-path';
import { getEmailLinkAddress, storeEmailLinkAddress } from '../../../lib/storage';
import { verifyEmailLink } from '../api/sign-in-methods-api';
import { useFinishSignIn } from '../hooks/use-finish-sign-in';
import { RegisterInvitation } from './register-invitation';
import { parseVerifyFragment, type VerifyKind, type VerifyLink } from '../lib/verify-fragment';
import { SignInCard } from './sign-in-card';
import { SecondFactorStep } from './second-factor-step';

const LINK_ERRORS = ['LINK_USED', 'LINK_EXPIRED', 'LINK_UNKNOWN', 'LINK_OTHER_ADDRESS'];

/**
 * /verify: where links from mails land. The token is in the URL fragment (`#signin=…`, `#invite=…`,
 * see lib/verify-fragment.ts), read once and then removed from the address bar and history. Each
 * kind has its own flow in FLOWS.
 */
export function VerifyPage() {
  const [link] = useState<VerifyLink | null>(() => parseVerifyFragment(window.location.hash));
  useEffect(() => {
    if (window.location.hash) window.history.replaceState(null, '', window.location.pathname);
  }, []);
  if (link === null) return <NoLink />;
  const Flow = FLOWS[link.kind];
  return <Flow token={link.token} />;
}

const FLOWS: Record<VerifyKind, (props: { token: string }) => ReactNode> = {
  signin: SignInLink,
  invite: RegisterInvitation,
};

function BackToLogin({ label }: { label: string }) {
  return (
    <AppLink
      to={paths.login.build()}
      className="mt-6 inline-block text-sm text-teal-700 underline-offset-4 hover:underline"
    >
      {label}
    </AppLink>
  );
}

function NoLink() {
  const { t } = useTranslation();
  return (
    <SignInCard title={t('verify.title')}>
      <p className="mt-2 text-sm text-slate-600">{t('verify.body')}</p>
      <BackToLogin label={t('verify.backToLogin')} />
    </SignInCard>
  );
}

/** Email-link sign-in: posts the token once (StrictMode runs effects twice; a second post would find it used). */
function SignInLink({ token }: { token: string }) {
  const { t } = useTranslation();
  const finish = useFinishSignIn();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  const [challenge, setChallenge] = useState<MfaChallenge | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void (async () => {
      const email = getEmailLinkAddress() ?? undefined;
      const result = await verifyEmailLink({ token, ...(email ? { email } : {}) });
      if (!result.ok) {
        const code = result.data?.code ?? '';
        return setFailure(LINK_ERRORS.includes(code) ? code : 'generic');
      }
      storeEmailLinkAddress(null);
      if ('mfaRequired' in result.data) return setChallenge(result.data);
      if (!(await finish(result.data))) setFailure('generic');
    })();
  }, [token, finish]);

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
      <SignInCard title={t(`verify.errors.${failure}.title`)}>
        <p
          role="alert"
          data-testid="verify-error"
          data-code={failure}
          className="mt-2 text-sm text-slate-700"
        >
          {t(`verify.errors.${failure}.body`)}
        </p>
        <BackToLogin label={t('verify.requestNew')} />
      </SignInCard>
    );
  }
  return (
    <SignInCard title={t('verify.title')}>
      <Spinner label={t('verify.signingIn')} />
      <p aria-hidden="true" className="text-center text-sm text-slate-700">
        {t('verify.signingIn')}
      </p>
    </SignInCard>
  );
}
