import { agreeToTerms, type UserInfo } from '@wearable/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { paths } from '../../../config/paths';
import { callResult } from '../../../lib/call';
import { loadUserInfo } from '../../../lib/session-api';

interface TermsModalProps {
  user: UserInfo;
}

/** Blocking terms-of-use consent, shown while the user has not agreed (never in the demo: the caller decides). */
export function TermsModal({ user }: TermsModalProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const checkboxId = useId();
  const [agreed, setAgreed] = useState(false);
  const [pending, setPending] = useState(false);
  // A failed post closes the modal for this page view (spec: error catalogue); it returns on reload.
  const [dismissed, setDismissed] = useState(false);

  async function confirm() {
    setPending(true);
    let failed: boolean;
    try {
      const result = await callResult(agreeToTerms, { body: { agreement: true } });
      failed = result.status >= 400;
      if (!failed) failed = !(await loadUserInfo()).ok;
    } catch {
      failed = true;
    }
    setPending(false);
    setDismissed(true);
    if (failed) toast.error(t('termsAgreementFailed'));
    else {
      toast.success(t('termsAgreementSuccess'));
      // The API refused data until now (403 TERMS_NOT_AGREED): the page behind the modal fetches again.
      void queryClient.invalidateQueries();
    }
  }

  return (
    <Dialog
      open={!user.agreedTermsOfUse && !dismissed}
      title={t('terms.title')}
      description={t('terms.lead')}
      blocking
      data-testid="terms-modal"
    >
      <div className="max-h-56 overflow-y-auto rounded-md border border-slate-200 bg-slate-50 p-3 text-sm text-slate-700">
        <p>{t('terms.summary')}</p>
        <a
          href={paths.legal.terms.build()}
          target="_blank"
          rel="noopener noreferrer"
          className="mt-2 inline-block text-teal-700 underline"
        >
          {t('terms.readFull')}
        </a>
      </div>
      <div className="mt-4 flex items-start gap-2">
        <input
          id={checkboxId}
          type="checkbox"
          data-testid="terms-checkbox"
          checked={agreed}
          onChange={(event) => setAgreed(event.target.checked)}
          className="mt-1 size-4 accent-teal-700"
        />
        <label htmlFor={checkboxId} className="text-sm text-slate-800">
          {t('terms.consent')}
        </label>
      </div>
      <div className="mt-6 flex justify-end">
        <Button
          variant="modal"
          data-testid="terms-ok"
          disabled={!agreed || pending}
          onClick={() => void confirm()}
        >
          {t('terms.ok')}
        </Button>
      </div>
    </Dialog>
  );
}
