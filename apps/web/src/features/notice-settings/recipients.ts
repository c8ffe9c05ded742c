import {
  ALERT_TYPES,
  type AlertNoticeSettingsResponse,
  type AlertType,
  DEFAULT_SCHEDULE,
  isChatChannel,
  KIND_NOTICE_TYPES,
  type NoticeRecipient,
  noticeRecipient,
  type StaffNoticeChannel,
  type OrganizationKind,
  type WeeklySchedule,
} from '@wearable/domain';

/** Escalation steps the contract allows (order 1..10). */
export const MAX_STEP = 10;
/** The alert types that always notify (EMERGENCY): a sensible first choice for a new recipient. */
export const EMERGENCY_TYPES: readonly AlertType[] = ['SOS_CALL', 'DETECT_FALL_DOWN'];

/**
 * A recipient while edited: who (a staff member, a number, or the organisation's chat channel set up on
 * /settings/chat-channels), how, what, when, at which step.
 */
export interface RecipientDraft {
  /** Local identity for React keys and focus (never sent). */
  key: string;
  /** onCall: whoever is on call in the group's rota when the notice leaves; chat: the organisation's channel. */
  kind: 'staff' | 'phone' | 'onCall' | 'chat';
  userId: string;
  /** The staff member's name as the server last told it (shown until the staff list arrives). */
  userName: string;
  phoneNumber: string;
  channel: StaffNoticeChannel;
  alertTypes: AlertType[];
  schedule: WeeklySchedule;
  order: number;
}

let nextKey = 0;
const newKey = () => `r${++nextKey}`;

/** A new recipient: by SMS, told of the alert types the organisation's kind starts with (KIND_NOTICE_TYPES). */
export function newDraft(order: number, kind: OrganizationKind = 'OTHER'): RecipientDraft {
  return {
    key: newKey(),
    kind: 'phone',
    userId: '',
    userName: '',
    phoneNumber: '',
    channel: 'SMS',
    alertTypes: [...KIND_NOTICE_TYPES[kind]],
    schedule: structuredClone(DEFAULT_SCHEDULE),
    order: Math.min(Math.max(order, 1), MAX_STEP),
  };
}

export function draftsOf(settings: AlertNoticeSettingsResponse): RecipientDraft[] {
  return sortByStep(
    settings.recipients.map((r) => ({
      key: newKey(),
      kind: isChatChannel(r.channel) ? 'chat' : r.onCall ? 'onCall' : r.userId ? 'staff' : 'phone',
      userId: r.userId ?? '',
      userName: r.userName ?? '',
      phoneNumber: r.phoneNumber ?? '',
      channel: r.channel,
      alertTypes: [...r.alertTypes],
      schedule: structuredClone(r.schedule),
      order: r.order,
    })),
  );
}

/** Escalation order; within a step, the order they were added (a stable sort). */
export const sortByStep = (drafts: RecipientDraft[]): RecipientDraft[] =>
  [...drafts].sort((a, b) => a.order - b.order);

/** The contract's shape of one draft (what PUT sends). */
export function recipientOf(d: RecipientDraft): NoticeRecipient {
  // A chat channel names no person and no number.
  const who =
    d.kind === 'chat'
      ? {}
      : d.kind === 'onCall'
        ? { onCall: true as const }
        : d.kind === 'staff'
          ? { userId: d.userId }
          : { phoneNumber: d.phoneNumber.trim() };
  return {
    ...who,
    channel: d.channel,
    alertTypes: ALERT_TYPES.filter((t) => d.alertTypes.includes(t)),
    schedule: d.schedule,
    order: d.order,
  };
}

/** Field -> message key (staff-settings namespace) for one draft, checked with the domain's schema. */
export type DraftErrors = Partial<
  Record<'userId' | 'phoneNumber' | 'alertTypes' | 'schedule' | 'order', string>
>;

export function checkDraft(d: RecipientDraft): DraftErrors {
  if (d.kind === 'staff' && d.userId === '') return { userId: 'notice.errors.staffRequired' };
  if (d.kind === 'phone' && d.phoneNumber.trim() === '')
    return { phoneNumber: 'notice.errors.phoneRequired' };
  const parsed = noticeRecipient.safeParse(recipientOf(d));
  if (parsed.success) return {};
  const errors: DraftErrors = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? '');
    if (field === 'phoneNumber') errors.phoneNumber ??= 'notice.errors.phone';
    else if (field === 'alertTypes') errors.alertTypes ??= 'notice.errors.alertTypes';
    else if (field === 'schedule') errors.schedule ??= 'notice.errors.schedule';
    else if (field === 'order') errors.order ??= 'notice.errors.order';
    else errors.userId ??= 'notice.errors.staffRequired';
  }
  return errors;
}

/**
 * Moves a recipient one escalation step earlier (-1) or later (+1), within 1..10. It lands first among the recipients
 * of its new step when moved earlier, last when moved later, so each press visibly moves it in the list.
 */
export function moveStep(drafts: RecipientDraft[], key: string, delta: -1 | 1): RecipientDraft[] {
  const moving = drafts.find((d) => d.key === key);
  if (!moving) return drafts;
  const order = Math.min(Math.max(moving.order + delta, 1), MAX_STEP);
  const rest = sortByStep(drafts.filter((d) => d.key !== key));
  const at =
    delta < 0
      ? rest.findIndex((d) => d.order >= order)
      : rest.findLastIndex((d) => d.order <= order) + 1;
  const index = at === -1 ? rest.length : at;
  return [...rest.slice(0, index), { ...moving, order }, ...rest.slice(index)];
}

/** Whether the drafts say the same as the stored list (so the page can tell unsaved changes). */
export function sameAsStored(
  drafts: RecipientDraft[],
  stored: AlertNoticeSettingsResponse,
): boolean {
  const norm = (list: NoticeRecipient[]) =>
    JSON.stringify(list.map((r) => ({ ...r, alertTypes: [...r.alertTypes].sort() })));
  const storedList = stored.recipients.map(({ userName: _userName, ...r }) => ({
    ...r,
    alertTypes: [...r.alertTypes],
  }));
  return (
    norm(sortByStep(drafts).map(recipientOf)) ===
    norm(sortByStep(draftsOf({ ...stored, recipients: storedList })).map(recipientOf))
  );
}
