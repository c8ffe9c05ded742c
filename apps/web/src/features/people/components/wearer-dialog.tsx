import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { createWearerRequest, updateUserRequest, type WearerListItem } from '@wearable/domain';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { ApiError } from '../../../lib/api-client';
import { contractErrors, formText, serverFieldErrors } from '../../../lib/form-errors';
import { FieldError, FormFailure, inputClass } from '../../../components/ui/form-parts';
import { useCreateWearer, useUpdatePerson } from '../api/people-api';

/**
 * Add a wearer (clientId given, no wearer) or edit one: name, its reading (furigana), birth date, group. Checked with the
 * server's own contract first; the server's refusal names the field or shows its message.
 */
export function WearerDialog(props: {
  clientId: string;
  wearer?: (WearerListItem & { birthDate?: string | null }) | undefined;
  groups: { id: string; name: string }[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const create = useCreateWearer();
  const update = useUpdatePerson();
  const change = props.wearer ? update : create;
  const [invalid, setInvalid] = useState<Set<string>>(new Set());
  const readingHelpId = useId();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const group = formText(form, 'groupId');
    const reading = formText(form, 'nameReading');
    const fields = {
      name: formText(form, 'name'),
      // Emptied: removed (null) if the wearer had one; nothing sent otherwise.
      nameReading: reading !== '' ? reading : props.wearer?.nameReading ? null : undefined,
      birthDate: formText(form, 'birthDate'),
      groupId: group === '' ? null : group,
    };
    try {
      if (props.wearer) {
        const body = {
          uid: props.wearer.uid,
          ...fields,
          ...(fields.birthDate === '' ? { birthDate: undefined } : {}),
        };
        const checked = contractErrors(updateUserRequest.safeParse(body));
        setInvalid(checked);
        if (checked.size > 0) return;
        await update.mutateAsync(body);
      } else {
        const body = { clientId: props.clientId, ...fields };
        const checked = contractErrors(createWearerRequest.safeParse(body));
        setInvalid(checked);
        if (checked.size > 0) return;
        await create.mutateAsync(body);
      }
      props.onClose();
    } catch (error) {
      if (error instanceof ApiError) setInvalid(serverFieldErrors(error.body));
    }
  }

  const title = props.wearer
    ? t('people.edit.title', { name: props.wearer.name })
    : t('people.add.title');
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && props.onClose()}
      title={title}
      data-testid="wearer-dialog"
    >
      <form className="space-y-4" onSubmit={(event) => void submit(event)} noValidate>
        <label className="block text-sm font-medium text-slate-700">
          {t('people.fields.name')}
          <input
            name="name"
            defaultValue={props.wearer?.name ?? ''}
            className={inputClass}
            aria-invalid={invalid.has('name')}
            required
            autoComplete="off"
            data-testid="wearer-name"
          />
          <FieldError show={invalid.has('name')}>{t('people.errors.name')}</FieldError>
        </label>
        <label className="block text-sm font-medium text-slate-700">
          {t('people.fields.nameReading')}
          <input
            name="nameReading"
            defaultValue={props.wearer?.nameReading ?? ''}
            className={inputClass}
            aria-invalid={invalid.has('nameReading')}
            aria-describedby={readingHelpId}
            autoComplete="off"
            data-testid="wearer-name-reading"
          />
          <span id={readingHelpId} className="mt-1 block text-xs font-normal text-slate-600">
            {t('people.nameReadingHelp')}
          </span>
          <FieldError show={invalid.has('nameReading')}>
            {t('people.errors.nameReading')}
          </FieldError>
        </label>
        <label className="block text-sm font-medium text-slate-700">
          {t('people.fields.birthDate')}
          <input
            name="birthDate"
            type="date"
            defaultValue={props.wearer?.birthDate ?? ''}
            className={inputClass}
            aria-invalid={invalid.has('birthDate')}
            required={!props.wearer}
            data-testid="wearer-birth-date"
          />
          <FieldError show={invalid.has('birthDate')}>{t('people.errors.birthDate')}</FieldError>
        </label>
        <label className="block text-sm font-medium text-slate-700">
          {t('people.fields.group')}
          <select
            // Opened from a link (/members?add=1) before the groups arrived: their first is the default once they do.
            key={props.groups.length === 0 ? 'none' : 'groups'}
            name="groupId"
            defaultValue={props.wearer?.groupId ?? props.groups[0]?.id ?? ''}
            className={inputClass}
            aria-invalid={invalid.has('groupId')}
            data-testid="wearer-group"
          >
            <option value="">{t('people.noGroup')}</option>
            {props.groups.map((g) => (
              <option key={g.id} value={g.id}>
                {g.name}
              </option>
            ))}
          </select>
          <FieldError show={invalid.has('groupId')}>{t('people.errors.groupId')}</FieldError>
        </label>
        <FormFailure error={change.error} />
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={props.onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            type="submit"
            variant="primary"
            disabled={change.isPending}
            data-testid="wearer-submit"
          >
            {t('people.save')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
