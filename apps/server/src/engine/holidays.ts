import holidayJp from '@holiday-jp/holiday_jp';

/** The library's table, read as a plain map of local date -> holiday. */
const HOLIDAYS: Readonly<Record<string, { name: string } | undefined>> = holidayJp.holidays;

/**
 * Japanese public holidays (the Cabinet Office's list as published by holiday-jp, to 2050), by local
 * date YYYY-MM-DD. A holiday reads as the weekend (the Sunday row) in weekly notice schedules unless
 * the group treats holidays as weekdays (issue 38, docs/on-call.md).
 */
export function isJapaneseHoliday(localDate: string): boolean {
  return Object.hasOwn(HOLIDAYS, localDate);
}

/** The holiday's name in Japanese, or null. */
export function japaneseHolidayName(localDate: string): string | null {
  return HOLIDAYS[localDate]?.name ?? null;
}
