import { useTranslation } from 'react-i18next';
import { paths } from '../../config/paths';

const linkClass =
  'text-slate-600 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-teal-600';

export function SiteFooter() {
  const { t } = useTranslation();
  return (
    <footer className="border-t border-slate-200 bg-white py-4 text-xs text-slate-500">
      <div className="mx-auto flex max-w-6xl flex-wrap px-4 items-center justify-between gap-3">
        <ul className="flex gap-4">
          <li>
            <a
              href={paths.legal.terms.build()}
              target="_blank"
              rel="noopener noreferrer"
              className={linkClass}
              data-testid="terms-link"
            >
              {t('footer.terms')}
              <span className="sr-only">{t('footer.newTab')}</span>
            </a>
          </li>
          <li>
            <a
              href={paths.legal.privacy.build()}
              target="_blank"
              rel="noopener noreferrer"
              className={linkClass}
              data-testid="privacy-link"
            >
              {t('footer.privacy')}
              <span className="sr-only">{t('footer.newTab')}</span>
            </a>
          </li>
        </ul>
        <p>{t('footer.copyright', { year: new Date().getFullYear() })}</p>
      </div>
    </footer>
  );
}
