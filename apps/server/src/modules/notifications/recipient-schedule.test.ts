import { BUSINESS_SCHEDULE, WEEKDAYS, type WeeklySchedule } from '@wearable/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWorld, type World } from '../../testing/world.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { notificationsRepository } from './notifications.repository.js';
import { isJapaneseHoliday, japaneseHolidayName } from '../../engine/holidays.js';
import { recipientOnDuty } from './recipient-schedule.js';

// Real holiday data (@holiday-jp/holiday_jp 2.5.1), nothing mocked.
const at = (iso: string) => new Date(iso);
const business = { schedule: BUSINESS_SCHEDULE };
const weekdaysAsUsual = { schedule: BUSINESS_SCHEDULE, holidays_as_weekdays: true };

/** Every night 22:00-06:00 except the Sunday row. */
const nights: WeeklySchedule = {
  ...(Object.fromEntries(
    WEEKDAYS.map((d) => [d, { enabled: true, startTime: '22:00', endTime: '06:00' }]),
  ) as WeeklySchedule),
  sunday: { enabled: false, startTime: '22:00', endTime: '06:00' },
};

describe('a Japanese public holiday in a weekly notice schedule', () => {
  it('knows the holidays by their Tokyo date', () => {
    expect(japaneseHolidayName('2027-02-11')).toBe('建国記念の日');
    expect(japaneseHolidayName('2026-11-23')).toBe('勤労感謝の日');
    expect(isJapaneseHoliday('2027-02-10')).toBe(false);
  });

  it('reads 2027-02-11 (建国記念の日, a Thursday) as a Sunday: no business-hours notice at 10:00 JST', () => {
    expect(recipientOnDuty(business, at('2027-02-11T01:00:00Z'), 'Asia/Tokyo')).toBe(false);
    // The day before, an ordinary Wednesday, and the day after, a Friday.
    expect(recipientOnDuty(business, at('2027-02-10T01:00:00Z'), 'Asia/Tokyo')).toBe(true);
    expect(recipientOnDuty(business, at('2027-02-12T01:00:00Z'), 'Asia/Tokyo')).toBe(true);
  });

  it('reads 2026-11-23 (勤労感謝の日, a Monday) as a Sunday', () => {
    expect(recipientOnDuty(business, at('2026-11-23T05:00:00Z'), 'Asia/Tokyo')).toBe(false);
    expect(recipientOnDuty(business, at('2026-11-24T05:00:00Z'), 'Asia/Tokyo')).toBe(true);
  });

  it('takes the date in the zone: 2027-02-10T15:30Z is the holiday in Tokyo, a Wednesday in UTC', () => {
    const exceptSunday: WeeklySchedule = {
      ...(Object.fromEntries(
        WEEKDAYS.map((d) => [d, { enabled: true, startTime: '00:00', endTime: '23:59' }]),
      ) as WeeklySchedule),
      sunday: { enabled: false, startTime: '00:00', endTime: '23:59' },
    };
    const instant = at('2027-02-10T15:30:00Z');
    expect(recipientOnDuty({ schedule: exceptSunday }, instant, 'Asia/Tokyo')).toBe(false);
    expect(recipientOnDuty({ schedule: exceptSunday }, instant, 'UTC')).toBe(true);
  });

  it('carries the holiday into the overnight part of a window that began on it', () => {
    // 2027-02-11 23:00 JST and 2027-02-12 03:00 JST belong to the holiday's night: the Sunday row, off.
    expect(recipientOnDuty({ schedule: nights }, at('2027-02-11T14:00:00Z'), 'Asia/Tokyo')).toBe(
      false,
    );
    expect(recipientOnDuty({ schedule: nights }, at('2027-02-11T18:00:00Z'), 'Asia/Tokyo')).toBe(
      false,
    );
    // The next night (Friday 22:00 JST) is an ordinary one.
    expect(recipientOnDuty({ schedule: nights }, at('2027-02-12T13:30:00Z'), 'Asia/Tokyo')).toBe(
      true,
    );
  });

  it('behaves as before for a group that treats public holidays as weekdays', () => {
    expect(recipientOnDuty(weekdaysAsUsual, at('2027-02-11T01:00:00Z'), 'Asia/Tokyo')).toBe(true);
    expect(recipientOnDuty(weekdaysAsUsual, at('2026-11-23T05:00:00Z'), 'Asia/Tokyo')).toBe(true);
    const nightsAsUsual = { schedule: nights, holidays_as_weekdays: true };
    expect(recipientOnDuty(nightsAsUsual, at('2027-02-11T18:00:00Z'), 'Asia/Tokyo')).toBe(true);
  });
});

describe("a group's recipients read its holiday setting (migration 046)", () => {
  let t: TestApp;
  let w: World;
  beforeAll(async () => {
    t = await createTestApp();
    w = await buildWorld(t);
  });
  afterAll(() => t.close());

  it('counts 2027-02-11 as a Sunday by default and as a Thursday once the group says so', async () => {
    const repo = notificationsRepository(t.db);
    await repo.replaceRecipients(w.orgA, w.g1, [
      {
        phoneNumber: '+819055550000',
        channel: 'SMS',
        alertTypes: ['SOS_CALL'],
        schedule: BUSINESS_SCHEDULE,
        order: 1,
      },
    ]);
    const holidayMorning = at('2027-02-11T01:00:00Z');
    const [byDefault] = await repo.groupRecipients(w.g1);
    expect(byDefault?.holidays_as_weekdays).toBe(false);
    expect(recipientOnDuty(byDefault!, holidayMorning, 'Asia/Tokyo')).toBe(false);

    await t.db.query('UPDATE groups SET public_holidays_as_weekdays = true WHERE id = $1', [w.g1]);
    const [asWeekday] = await repo.groupRecipients(w.g1);
    expect(recipientOnDuty(asWeekday!, holidayMorning, 'Asia/Tokyo')).toBe(true);
    const [orgWide] = await repo.organizationRecipients(w.orgA);
    expect(orgWide?.holidays_as_weekdays).toBe(true);
  });
});
