import {
  type CreateClientBody,
  createClientBody,
  ORGANIZATION_KINDS,
  type OrganizationKind,
} from '@wearable/domain';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { FieldError, FormFailure, inputClass } from '../../../components/ui/form-parts';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { AppLink } from '../../../lib/app-path';
import { contractErrors, formText, serverFieldErrors } from '../../../lib/form-errors';
import { useCreateOrganization } from '../api/organization-changes';

/** Time zones offered first; any IANA zone may be typed (the contract checks it). */
const TIME_ZONES = ['Asia/Tokyo', 'Asia/Seoul', 'Asia/Singapore', 'UTC'];

/**
 * A platform owner's new organisation (issue 35): name, kind (its alert defaults), time zone, and the
 * owner invited into it by mail. The same contract as the server checks the form first.
 */
export function CreateOrganizationDialog({ onClose }: { onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const create = useCreateOrganization();
  const [kind, setKind] = useState<OrganizationKind>('CONSTRUCTION_SITE');
  const [invalid, setInvalid] = useState<Set<string>>(new Set());
  const [created, setCreated] = useState<{ id: string; name: string; owner: string | null } | null>(
    null,
  );

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const text = (name: string) => formText(form, name).trim();
    const ownerEmail = text('ownerEmail');
    const body: CreateClientBody = {
      name: text('name'),
      kind,
      timeZone: text('timeZone') || 'Asia/Tokyo',
      ...(ownerEmail
        ? {
            owner: {
              email: ownerEmail,
              ...(text('ownerName') ? { name: text('ownerName') } : {}),
              locale: text('locale') === 'en' ? 'en' : 'ja',
            },
          }
        : {}),
    };
    const checked = contractErrors(createClientBody.safeParse(body));
    // The owner is required here (the API allows an organisation without one).
    if (!ownerEmail) checked.add('owner');
    setInvalid(checked);
    if (checked.size > 0) return;
    try {
      const answer = await create.mutateAsync(body);
      setCreated({ id: answer.id, name: answer.name, owner: answer.invitedOwner });
    } catch (error) {
      if (error instanceof ApiError) setInvalid(serverFieldErrors(error.body));
    }
  }

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('organizations.create.title')}
      description={t('organizations.create.lead')}
      data-testid="create-organization-dialog"
    >
      {created ? (
        <div className="space-y-4">
          <p
            role="status"
            data-testid="create-organization-done"
            className="rounded-md bg-teal-50 px-3 py-2 text-sm text-teal-900"
          >
            {t('organizations.create.done', { name: created.name, email: created.owner ?? '' })}
          </p>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="outline" onClick={onClose}>
              {t('common.close')}
            </Button>
            <AppLink
              to={`${paths.setup.build()}?clientId=${encodeURIComponent(created.id)}`}
              data-testid="create-organization-setup"
              className="inline-flex items-center justify-center rounded-md bg-teal-700 px-4 py-2 text-sm font-medium text-white hover:bg-teal-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-teal-600"
            >
              {t('organizations.create.toSetup')}
            </AppLink>
          </div>
        </div>
      ) : (
        <form className="space-y-4" onSubmit={(event) => void submit(event)} noValidate>
          <label className="block text-sm font-medium text-slate-700">
            {t('organizations.create.name')}
            <input
              name="name"
              autoComplete="organization"
              maxLength={100}
              required
              aria-invalid={invalid.has('name')}
              className={inputClass}
              data-testid="create-organization-name"
            />
            <FieldError show={invalid.has('name')}>
              {t('organizations.create.errors.name')}
            </FieldError>
          </label>
          <fieldset>
            <legend className="text-sm font-medium text-slate-700">
              {t('organizations.create.kind')}
            </legend>
            <div className="mt-1 space-y-1">
              {ORGANIZATION_KINDS.map((k) => (
                <label key={k} className="flex items-start gap-2 text-sm text-slate-800">
                  <input
                    type="radio"
                    name="kind"
                    value={k}
                    checked={kind === k}
                    onChange={() => setKind(k)}
                    className="mt-1"
                    data-testid={`create-organization-kind-${k}`}
                  />
                  <span>
                    {t(`organizations.kinds.${k}`)}
                    <span className="block text-xs text-slate-600">
                      {t(`organizations.kindDefaults.${k}`)}
                    </span>
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
          <label className="block text-sm font-medium text-slate-700">
            {t('organizations.create.timeZone')}
            <input
              name="timeZone"
              defaultValue="Asia/Tokyo"
              list="create-organization-zones"
              autoComplete="off"
              aria-invalid={invalid.has('timeZone')}
              className={inputClass}
              data-testid="create-organization-time-zone"
            />
            <datalist id="create-organization-zones">
              {TIME_ZONES.map((z) => (
                <option key={z} value={z} />
              ))}
            </datalist>
            <FieldError show={invalid.has('timeZone')}>
              {t('organizations.create.errors.timeZone')}
            </FieldError>
          </label>
          <label className="block text-sm font-medium text-slate-700">
            {t('organizations.create.ownerEmail')}
            <input
              name="ownerEmail"
              type="email"
              autoComplete="off"
              required
              aria-invalid={invalid.has('owner')}
              className={inputClass}
              data-testid="create-organization-owner-email"
            />
            <FieldError show={invalid.has('owner')}>
              {t('organizations.create.errors.ownerEmail')}
            </FieldError>
          </label>
          <label className="block text-sm font-medium text-slate-700">
            {t('organizations.create.ownerName')}
            <input
              name="ownerName"
              autoComplete="off"
              maxLength={100}
              className={inputClass}
              data-testid="create-organization-owner-name"
            />
          </label>
          <label className="block text-sm font-medium text-slate-700">
            {t('admins.invite.locale')}
            <select
              name="locale"
              defaultValue={i18n.language === 'en' ? 'en' : 'ja'}
              className={inputClass}
            >
              <option value="ja">日本語</option>
              <option value="en">English</option>
            </select>
          </label>
          <FormFailure error={create.error} />
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="outline" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button
              type="submit"
              variant="primary"
              disabled={create.isPending}
              data-testid="create-organization-submit"
            >
              {t('organizations.create.submit')}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
