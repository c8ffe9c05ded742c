import { useTranslation } from 'react-i18next';
import { buttonClasses } from '../../../components/ui/button';
import { OIDC_START_URL } from '../api/sign-in-factors-api';

/** "Sign in with <provider>", shown only when the server has an OpenID provider configured. */
export function OidcButton({ displayName }: { displayName: string | undefined }) {
  const { t } = useTranslation();
  if (!displayName) return null;
  return (
    <div className="mt-4">
      <p className="mb-4 text-center text-xs text-slate-500">{t('oidc.or')}</p>
      {/* A full page load: the server answers with a redirect to the provider. */}
      <a
        href={OIDC_START_URL}
        className={buttonClasses('outline', 'w-full')}
        data-testid="oidc-start"
      >
        {t('oidc.signInWith', { name: displayName })}
      </a>
    </div>
  );
}
