import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';

/** Previous / next with "page 2 of 5 (243 alerts)" between, announced when it changes. */
export function Pager({
  page,
  pageSize,
  total,
  onPage,
}: {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
}) {
  const { t } = useTranslation('alerts');
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <nav
      aria-label={t('pager.label')}
      className="mt-4 flex items-center justify-between gap-2 text-sm text-slate-600"
    >
      <Button
        variant="outline"
        data-testid="pager-prev"
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
      >
        {t('pager.previous')}
      </Button>
      <p aria-live="polite" data-testid="pager-status">
        {t('pager.status', { page, pages, count: total })}
      </p>
      <Button
        variant="outline"
        data-testid="pager-next"
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
      >
        {t('pager.next')}
      </Button>
    </nav>
  );
}
