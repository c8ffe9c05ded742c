import { inviteBody, type Person } from '@wearable/domain';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { QueryState } from '../../../components/ui/query-state';
import { useCan } from '../../../lib/use-can';
import { ApiError } from '../../../lib/api-client';
import { firstInvalidIn, useFocusAfterRender } from '../../../lib/use-focus-after-render';
import { fieldOf } from '../api/change-error';
import { useInviteFamily } from '../api/family-invite';
import { useUnlinkFamily } from '../api/family-unlink';
import { useWearerFamily } from '../api/wearer-family';
import { inputClass, Refusal } from './form-parts';

/** /devices/{clientId}/{uid}/member: the family members watching this wearer, and an invitation for one more. */
export function WatchersPanel({ person }: { person: Person }) {
  const { t } = useTranslation(['wearer', 'common']);
  const clientId = person.clientId ?? '';
  const family = useWearerFamily(clientId, person.uid);
  const canManage = useCan('family:manage', { organizationId: clientId, wearerId: person.uid });
  const unlink = useUnlinkFamily();
  const none = t('common:common.none');
  const [stopping, setStopping] = useState<{ uid: string; name: string } | null>(null);

  const stopWatching = () => {
    if (stopping === null || unlink.isPending) return;
    const member = stopping;
    unlink.mutate(
      { uid: member.uid, wearerUid: person.uid },
      {
        onSuccess: () => {
          toast.success(t('watchers.unlinked', { name: member.name }));
          setStopping(null);
        },
        onError: () => toast.error(t('watchers.unlinkFailed')),
      },
    );
  };

  return (
    <div className="grid gap-6">
      <section
        aria-labelledby="watchers-title"
        className="rounded-lg border border-slate-200 bg-white p-4"
      >
        <h2 id="watchers-title" className="mb-3 text-base font-semibold text-slate-900">
          {t('watchers.title')}
        </h2>
        <QueryState
          isPending={family.isPending}
          isError={family.isError}
          isEmpty={(family.data ?? []).length === 0}
          labels={{
            loading: t('common:common.loading'),
            error: t('common:common.loadFailed'),
            empty: t('watchers.empty'),
            retry: t('common:common.retry'),
          }}
          onRetry={() => void family.refetch()}
        >
          <ul className="divide-y divide-slate-200" data-testid="watchers">
            {(family.data ?? []).map((member) => (
              <li
                key={member.uid}
                data-testid="watcher"
                className="flex flex-wrap items-center justify-between gap-2 py-3"
              >
                <div className="min-w-0">
                  <p className="font-medium break-words text-slate-900">{member.name}</p>
                  <p className="text-sm break-all text-slate-600">
                    {member.email ?? none} · {member.phoneNumber ?? none}
                  </p>
                </div>
                {canManage && (
                  <Button
                    variant="outline"
                    data-testid="watcher-unlink"
                    onClick={() => setStopping(member)}
                    aria-label={t('watchers.unlinkLabel', { name: member.name })}
                  >
                    {t('watchers.unlink')}
                  </Button>
                )}
              </li>
            ))}
          </ul>
        </QueryState>
      </section>
      {canManage && <InviteForm person={person} />}
      <Dialog
        open={stopping !== null}
        onOpenChange={(open) => !open && setStopping(null)}
        title={t('watchers.unlink')}
        description={
          stopping
            ? t('watchers.unlinkConfirm', { name: stopping.name, wearer: person.name })
            : undefined
        }
        data-testid="watcher-unlink-dialog"
      >
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={() => setStopping(null)}>
            {t('common.cancel')}
          </Button>
          <Button
            variant="destructive"
            data-testid="watcher-unlink-confirm"
            aria-disabled={unlink.isPending}
            onClick={stopWatching}
          >
            {t('watchers.unlink')}
          </Button>
        </div>
      </Dialog>
    </div>
  );
}

type Field = 'email' | 'name' | 'locale';

function InviteForm({ person }: { person: Person }) {
  const { t, i18n } = useTranslation(['wearer', 'common']);
  const id = useId();
  const invite = useInviteFamily();
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [locale, setLocale] = useState<'ja' | 'en'>(i18n.resolvedLanguage === 'en' ? 'en' : 'ja');
  const [invalid, setInvalid] = useState<ReadonlySet<string>>(new Set());
  const [refusal, setRefusal] = useState<string | null>(null);
  const focusAfterRender = useFocusAfterRender();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (invite.isPending) return;
    const body = {
      email: email.trim(),
      role: 'PERSONAL' as const,
      wearerId: person.uid,
      locale,
      ...(name.trim() ? { name: name.trim() } : {}),
    };
    const checked = inviteBody.safeParse(body);
    if (!checked.success) {
      setInvalid(new Set(checked.error.issues.map((i) => fieldOf(i.path))));
      focusAfterRender(firstInvalidIn(event.currentTarget));
      return;
    }
    setInvalid(new Set());
    setRefusal(null);
    invite.mutate(body, {
      onSuccess: () => {
        toast.success(t('watchers.invited', { email: body.email }));
        setEmail('');
        setName('');
      },
      onError: (error) => {
        if (error instanceof ApiError) {
          setInvalid(new Set((error.body?.issues ?? []).map((i) => fieldOf(i.path))));
          setRefusal(
            error.status === 403
              ? t('watchers.forbidden')
              : (error.body?.message ?? t('watchers.inviteFailed')),
          );
        } else setRefusal(t('watchers.inviteFailed'));
      },
    });
  };

  const control = (field: Field) => ({
    id: `${id}-${field}`,
    'aria-invalid': invalid.has(field),
    'aria-describedby': invalid.has(field) ? `${id}-${field}-error` : undefined,
  });
  const errorOf = (field: Field) =>
    invalid.has(field) ? (
      <p
        id={`${id}-${field}-error`}
        data-testid="field-error"
        className="mt-1 text-xs text-red-700"
      >
        {t(`watchers.invalid.${field}`)}
      </p>
    ) : null;

  return (
    <form
      noValidate
      onSubmit={submit}
      data-testid="invite-family"
      aria-labelledby={`${id}-title`}
      className="grid max-w-xl gap-4 rounded-lg border border-slate-200 bg-white p-4"
    >
      <h2 id={`${id}-title`} className="text-base font-semibold text-slate-900">
        {t('watchers.inviteTitle')}
      </h2>
      <p className="text-sm text-slate-700">{t('watchers.inviteLead', { name: person.name })}</p>
      <div className="flex flex-col">
        <label htmlFor={`${id}-email`} className="mb-1 text-sm font-medium text-slate-800">
          {t('watchers.email')}
        </label>
        <input
          {...control('email')}
          type="email"
          autoComplete="off"
          data-testid="invite-email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          className={inputClass(invalid.has('email'), 'w-full')}
        />
        {errorOf('email')}
      </div>
      <div className="flex flex-col">
        <label htmlFor={`${id}-name`} className="mb-1 text-sm font-medium text-slate-800">
          {t('watchers.name')}
        </label>
        <input
          {...control('name')}
          autoComplete="off"
          data-testid="invite-name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          className={inputClass(invalid.has('name'), 'w-full')}
        />
        {errorOf('name')}
      </div>
      <div className="flex flex-col">
        <label htmlFor={`${id}-locale`} className="mb-1 text-sm font-medium text-slate-800">
          {t('watchers.locale')}
        </label>
        <select
          {...control('locale')}
          value={locale}
          onChange={(e) => setLocale(e.target.value === 'en' ? 'en' : 'ja')}
          className={inputClass(false, 'w-full max-w-56')}
        >
          <option value="ja">日本語</option>
          <option value="en">English</option>
        </select>
      </div>
      <Refusal text={refusal} testId="invite-error" />
      <div>
        <Button
          type="submit"
          variant="primary"
          data-testid="send-invite"
          aria-disabled={invite.isPending}
        >
          {invite.isPending ? t('watchers.sending') : t('watchers.send')}
        </Button>
      </div>
    </form>
  );
}
