import type { SimEventKind } from './events.js';

/**
 * A working day as a script: what happens to whom at which local time, on every working day
 * (Monday to Saturday). The demo's default: a hot site where most people cope, one or two
 * whose strain climbs in the afternoon, an SOS and a fall now and then, a bracelet taken off
 * and one out of range. Scripted so a newcomer sees the same believable shift each day.
 */
export interface ShiftPlanItem {
  kind: SimEventKind;
  serialNumber: string;
  /** Local time the event begins, minutes after midnight. */
  minuteOfDay: number;
  durationMinutes?: number;
}

const at = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * The demo's shift for these bracelets (site workers, in the order given). Roles go by index
 * so that a larger or smaller organisation still gets each role once; with fewer than 8
 * bracelets some roles fall on the same person and the later one waits its turn.
 */
export function defaultShiftPlan(serialNumbers: readonly string[]): ShiftPlanItem[] {
  const n = serialNumbers.length;
  if (n === 0) return [];
  const who = (index: number) => serialNumbers[index % n]!;
  const item = (
    kind: SimEventKind,
    index: number,
    time: string,
    durationMinutes?: number,
  ): ShiftPlanItem => ({ kind, serialNumber: who(index), minuteOfDay: at(time), durationMinutes });
  return [
    // Two workers whose strain climbs through the hot afternoon until they are sent to rest.
    item('strain', 2, '13:00', 240),
    item('strain', Math.floor(n / 2) + 1, '14:30', 150),
    // Now and then an SOS or a fall.
    item('sos', 4, '10:40'),
    item('fall', Math.floor(n / 2) + 3, '14:10'),
    item('sos', 6, '15:50'),
    // A bracelet taken off for a while, morning and afternoon.
    item('removed', 5, '09:30', 40),
    item('removed', 5, '15:20', 45),
    // Someone working beyond the gateway's reach.
    item('out-of-range', n - 1, '11:00', 45),
    item('out-of-range', n - 1, '13:40', 50),
  ];
}
