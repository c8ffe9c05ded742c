import { useTranslation } from 'react-i18next';
import { Spinner } from '../components/ui/spinner';

/** Shown while the app initialises: translations, then the user info. */
export function AppSpinner({ fullScreen = true }: { fullScreen?: boolean }) {
  const { t } = useTranslation('boot');
  return (
    <Spinner
      label={t('loading')}
      data-testid="app-spinner"
      className={fullScreen ? 'min-h-screen' : 'min-h-64'}
    />
  );
}
