import { CHAT_LINK_CODE_MINUTES } from '@wearable/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { ApiError } from '../../../lib/api-client';
import { useCan } from '../../../lib/use-can';
import { useFamilyLineCode, useFamilyNotices, useUnlinkFamilyLine } from '../api/family-notices';

const messageOf = (err: unknown) =>
  err instanceof ApiError ? (err.body?.message ?? err.message) : String(err);

/**
 * /user/info, for a family member whose watched wearer's organisation set up LINE (decision 0024): a
 * one-time code sent as a message to the organisation's LINE official account links their LINE user; then
 * LINE can be chosen on the family notice choice. The link can be removed.
 */
export function FamilyLineLink() {
  const { t } = useTranslation(['family', 'common']);
  const allowed = useCan('familyNotice:manage');
  const notices = useFamilyNotices();
  const create = useFamilyLineCode();
  const unlink = useUnlinkFamilyLine();
  const [code, setCode] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const line = notices.data?.line;
  if (!allowed || !line?.available) return null;
  return (
    <section
      aria-labelledby="family-line-heading"
      data-testid="family-line-link"
      className="mt-6 rounded-lg border border-slate-200 bg-white p-4"
    >
      <h2 id="family-line-heading" className="text-base font-semibold text-slate-900">
        {t('family:line.heading')}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{t('family:line.lead')}</p>
      <p className="mt-2 text-sm text-slate-800" data-testid="family-line-state">
        {line.linked ? t('family:line.linked') : t('family:line.notLinked')}
      </p>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button
          variant="secondary"
          disabled={create.isPending}
          data-testid="family-line-code"
          onClick={() =>
            create.mutate(undefined, {
              onSuccess: (r) => {
                setFailed(null);
                setCode(r.code);
              },
              onError: (err) => setFailed(messageOf(err)),
            })
          }
        >
          {t('family:line.getCode')}
        </Button>
        {line.linked && (
          <Button
            variant="ghost"
            disabled={unlink.isPending}
            data-testid="family-line-unlink"
            onClick={() =>
              unlink.mutate(undefined, {
                onSuccess: () => setCode(null),
                onError: (err) => setFailed(messageOf(err)),
              })
            }
          >
            {t('family:line.unlink')}
          </Button>
        )}
      </div>
      {code && (
        <p className="mt-2 text-sm text-slate-900" data-testid="family-line-code-value">
          {t('family:line.code', { code, minutes: CHAT_LINK_CODE_MINUTES })}
        </p>
      )}
      {failed && (
        <p role="status" className="mt-2 text-sm break-words text-red-700">
          {t('family:line.failed', { error: failed })}
        </p>
      )}
    </section>
  );
}
