import { isWithinSchedule } from '@wearable/domain';
import { isJapaneseHoliday } from '../../engine/holidays.js';
import type { RecipientRow } from './notifications.repository.js';

/**
 * Whether a recipient's weekly schedule covers `now` in the alert's zone. A Japanese public holiday
 * reads the Sunday row unless the recipient's group treats holidays as weekdays (docs/on-call.md).
 */
export function recipientOnDuty(
  r: Pick<RecipientRow, 'schedule' | 'holidays_as_weekdays'>,
  now: Date,
  timeZone: string,
): boolean {
  return isWithinSchedule(
    r.schedule,
    now,
    timeZone,
    r.holidays_as_weekdays ? {} : { isHoliday: isJapaneseHoliday },
  );
}
