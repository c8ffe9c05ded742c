import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api-client';

export const inputClass =
  'mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-base focus-visible:outline-2 focus-visible:outline-teal-600 aria-[invalid=true]:border-red-600';

/** A field's problem, announced when it appears. */
export function FieldError({
  show,
  children,
  id,
}: {
  show: boolean;
  children: ReactNode;
  id?: string;
}) {
  if (!show) return null;
  return (
    <span id={id} role="alert" className="mt-1 block text-sm font-normal text-red-700">
      {children}
    </span>
  );
}

/** Server codes the pages explain in the reader's language; any other refusal shows the server's message. */
const KNOWN_CODES = [
  'EMAIL_TAKEN',
  'INVITATION_CONFLICT',
  'LAST_OWNER',
  'LAST_GROUP',
  'ROLE_NOT_GRANTABLE',
  'MEMBER_NOT_FOUND',
  'INVITATION_NOT_FOUND',
  'NOT_A_GROUP_MANAGER',
  'FORBIDDEN',
];

/** Why the server refused a change. */
export function FormFailure({ error }: { error: Error | null }) {
  const { t } = useTranslation();
  if (error === null) return null;
  const body = error instanceof ApiError ? error.body : null;
  const code = body?.code ?? '';
  const text = KNOWN_CODES.includes(code)
    ? t(`admins.errors.${code}`)
    : (body?.message ?? t('admins.errors.generic'));
  return (
    <p
      role="alert"
      data-testid="form-failure"
      className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800"
    >
      {text}
    </p>
  );
}

/** The groups a group manager manages: at least one. */
export function GroupChoice(props: {
  groups: { id: string; name: string }[];
  selected: string[];
  onChange: (ids: string[]) => void;
  invalid: boolean;
}) {
  const { t } = useTranslation();
  const toggle = (id: string, on: boolean) =>
    props.onChange(on ? [...props.selected, id] : props.selected.filter((g) => g !== id));
  return (
    <fieldset className="text-sm" aria-invalid={props.invalid} data-testid="group-choice">
      <legend className="font-medium text-slate-700">{t('admins.columns.groups')}</legend>
      {props.groups.length === 0 && <p className="mt-1 text-slate-500">{t('admins.noGroups')}</p>}
      <div className="mt-1 max-h-48 space-y-1 overflow-y-auto">
        {props.groups.map((group) => (
          <label key={group.id} className="flex items-center gap-2">
            <input
              type="checkbox"
              className="size-4"
              checked={props.selected.includes(group.id)}
              onChange={(e) => toggle(group.id, e.target.checked)}
            />
            <span className="break-all">{group.name}</span>
          </label>
        ))}
      </div>
      <FieldError show={props.invalid}>{t('admins.errors.groupIds')}</FieldError>
    </fieldset>
  );
}
