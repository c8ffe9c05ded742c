import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { buttonClasses } from '../../../components/ui/button';
import { getSignInMethods, OIDC_START_URL } from '../api/sign-in-factors-api';

/** "Sign in with <provider>", shown only when the server has an OpenID provider configured. */
export function OidcButton() {
  const { t } = useTranslation();
  const [displayName, setDisplayName] = useState<string | null>(null);

  useEffect(() => {
    void getSignInMethods().then((result) => {
      if (result.ok && result.data.oidc) setDisplayName(result.data.oidc.displayName);
    });
  }, []);

  if (displayName === null) return null;
  return (
    <div className="mt-4">
      <p className="mb-4 text-center text-xs text-slate-500">{t('oidc.or')}</p>
      {/* A full page load: the server answers with a redirect to the provider. */}
      <a href={OIDC_START_URL} className={buttonClasses('outline', 'w-full')} data-testid="oidc-start">
        {t('oidc.signInWith', { name: displayName })}
      </a>
    </div>
  );
}
