import { ageOn, maxHeartRate, type Person, updateUserRequest } from '@wearable/domain';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button';
import { useCan } from '../../../lib/use-can';
import { ApiError } from '../../../lib/api-client';
import { firstInvalidIn, useFocusAfterRender } from '../../../lib/use-focus-after-render';
import { fieldOf } from '../api/change-error';
import { useClientGroups } from '../api/client-groups';
import { useUpdateWearer } from '../api/update-wearer';
import { inputClass, Refusal } from './form-parts';

type Field = 'name' | 'nameReading' | 'birthDate' | 'groupId';
const FIELDS: readonly Field[] = ['name', 'nameReading', 'birthDate', 'groupId'];
const isField = (f: string): f is Field => (FIELDS as readonly string[]).includes(f);

/** The maximum heart rate a birth date gives (208 - 0.7 x age), or null for an unreadable date. */
export function maxHeartRateFor(
  birthDate: string,
  today: Date,
): { age: number; max: number } | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(birthDate) || Number.isNaN(Date.parse(birthDate))) return null;
  const age = ageOn(birthDate, today);
  return age < 0 ? null : { age, max: maxHeartRate(age) };
}

/** /devices/{clientId}/{uid}/config: the wearer's name, birth date (and so maximum heart rate) and group. */
export function ProfilePanel({ person }: { person: Person }) {
  const { t } = useTranslation(['wearer', 'common']);
  const id = useId();
  const clientId = person.clientId ?? '';
  const canEdit = useCan('wearer:manage', { organizationId: clientId, wearerId: person.uid });
  const groups = useClientGroups(clientId);
  const update = useUpdateWearer();
  const [name, setName] = useState(person.name);
  const [reading, setReading] = useState(person.nameReading ?? '');
  const [birthDate, setBirthDate] = useState(person.birthDate ?? '');
  const [groupId, setGroupId] = useState(person.groupId ?? '');
  const [invalid, setInvalid] = useState<ReadonlySet<Field>>(new Set());
  const [refusal, setRefusal] = useState<string | null>(null);
  const heart = maxHeartRateFor(birthDate, new Date());
  const focusAfterRender = useFocusAfterRender();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (update.isPending || !canEdit) return;
    const body = {
      uid: person.uid,
      ...(name.trim() !== person.name ? { name: name.trim() } : {}),
      ...(reading.trim() !== (person.nameReading ?? '') ? { nameReading: reading.trim() } : {}),
      ...(birthDate !== (person.birthDate ?? '') ? { birthDate } : {}),
      ...(groupId !== (person.groupId ?? '') ? { groupId: groupId === '' ? null : groupId } : {}),
    };
    if (Object.keys(body).length === 1) {
      toast.info(t('profile.unchanged'));
      return;
    }
    const checked = updateUserRequest.safeParse(body);
    if (!checked.success) {
      setInvalid(new Set(checked.error.issues.map((i) => fieldOf(i.path)).filter(isField)));
      focusAfterRender(firstInvalidIn(event.currentTarget));
      return;
    }
    setInvalid(new Set());
    setRefusal(null);
    // mutateAsync, not mutate's callbacks: the saved profile re-keys this panel (a new mount), and mutate's
    // onSuccess is dropped for an unmounted observer, so the confirmation toast never showed.
    update.mutateAsync(checked.data).then(
      () => toast.success(t('profile.saved')),
      (error: unknown) => {
        if (error instanceof ApiError) {
          const fields = (error.body?.issues ?? []).map((i) => fieldOf(i.path)).filter(isField);
          setInvalid(new Set(fields));
          setRefusal(
            error.status === 403
              ? t('profile.forbidden')
              : (error.body?.message ?? t('profile.failed')),
          );
        } else setRefusal(t('profile.failed'));
      },
    );
  };

  const describe = (field: Field, help?: boolean) =>
    [help ? `${id}-${field}-help` : '', invalid.has(field) ? `${id}-${field}-error` : '']
      .filter(Boolean)
      .join(' ') || undefined;
  const errorOf = (field: Field) =>
    invalid.has(field) ? (
      <p
        id={`${id}-${field}-error`}
        data-testid="field-error"
        className="mt-1 text-xs text-red-700"
      >
        {t(`profile.invalid.${field}`)}
      </p>
    ) : null;

  return (
    <form
      noValidate
      onSubmit={submit}
      data-testid="profile-form"
      className="grid max-w-xl gap-4 rounded-lg border border-slate-200 bg-white p-4"
    >
      {!canEdit && <p className="text-sm text-slate-700">{t('profile.readOnly')}</p>}
      <div className="flex flex-col">
        <label htmlFor={`${id}-name`} className="mb-1 text-sm font-medium text-slate-800">
          {t('profile.name')}
        </label>
        <input
          id={`${id}-name`}
          data-testid="profile-name"
          value={name}
          readOnly={!canEdit}
          autoComplete="off"
          aria-invalid={invalid.has('name')}
          aria-describedby={describe('name')}
          onChange={(e) => setName(e.target.value)}
          className={inputClass(invalid.has('name'), 'w-full')}
        />
        {errorOf('name')}
      </div>
      <div className="flex flex-col">
        <label htmlFor={`${id}-nameReading`} className="mb-1 text-sm font-medium text-slate-800">
          {t('profile.nameReading')}
        </label>
        <input
          id={`${id}-nameReading`}
          data-testid="profile-name-reading"
          value={reading}
          readOnly={!canEdit}
          autoComplete="off"
          aria-invalid={invalid.has('nameReading')}
          aria-describedby={describe('nameReading', true)}
          onChange={(e) => setReading(e.target.value)}
          className={inputClass(invalid.has('nameReading'), 'w-full')}
        />
        <p id={`${id}-nameReading-help`} className="mt-1 text-xs text-slate-600">
          {t('profile.nameReadingHelp')}
        </p>
        {errorOf('nameReading')}
      </div>
      <div className="flex flex-col">
        <label htmlFor={`${id}-birthDate`} className="mb-1 text-sm font-medium text-slate-800">
          {t('profile.birthDate')}
        </label>
        <input
          id={`${id}-birthDate`}
          type="date"
          data-testid="profile-birth-date"
          value={birthDate}
          readOnly={!canEdit}
          aria-invalid={invalid.has('birthDate')}
          aria-describedby={describe('birthDate', true)}
          onChange={(e) => setBirthDate(e.target.value)}
          className={inputClass(invalid.has('birthDate'), 'w-full max-w-56')}
        />
        <p
          id={`${id}-birthDate-help`}
          data-testid="profile-max-heart-rate"
          aria-live="polite"
          className="mt-1 text-sm text-slate-700"
        >
          {heart === null
            ? t('profile.maxUnknown')
            : t('profile.maxHeartRate', { age: heart.age, max: heart.max })}
        </p>
        {errorOf('birthDate')}
      </div>
      <div className="flex flex-col">
        <label htmlFor={`${id}-groupId`} className="mb-1 text-sm font-medium text-slate-800">
          {t('profile.group')}
        </label>
        <select
          id={`${id}-groupId`}
          data-testid="profile-group"
          value={groupId}
          disabled={!canEdit}
          aria-invalid={invalid.has('groupId')}
          aria-describedby={describe('groupId')}
          onChange={(e) => setGroupId(e.target.value)}
          className={inputClass(invalid.has('groupId'), 'w-full max-w-md')}
        >
          <option value="">{t('common.noGroup')}</option>
          {(
            groups.data ??
            (person.groupId
              ? [{ id: person.groupId, name: person.groupName ?? person.groupId }]
              : [])
          ).map((g) => (
            <option key={g.id} value={g.id}>
              {g.name}
            </option>
          ))}
        </select>
        {errorOf('groupId')}
      </div>
      <Refusal text={refusal} testId="profile-error" />
      {canEdit && (
        <div>
          <Button
            type="submit"
            variant="primary"
            data-testid="save-profile"
            aria-disabled={update.isPending}
          >
            {update.isPending ? t('profile.saving') : t('profile.save')}
          </Button>
        </div>
      )}
    </form>
  );
}
