import { useTranslation } from 'react-i18next';
import { Toaster } from 'sonner';
import { useTheme } from '../../lib/theme';

/**
 * Spec: one toast at a time, closing after 5 s. Mounted by the shell, where every toast is raised, so the
 * sign-in pages do not load the toast library (issue 20: /login within 120 kB gzip of JavaScript).
 */
export function AppToaster() {
  const { t } = useTranslation();
  const { theme } = useTheme();
  return (
    <Toaster
      theme={theme}
      visibleToasts={1}
      duration={5000}
      position="top-center"
      richColors
      containerAriaLabel={t('toast.region')}
    />
  );
}
