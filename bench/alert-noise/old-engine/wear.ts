import type { EngineInput } from './types.js';

/** Whether the bracelet is on the wrist, from worn flags in readings and WORN/REMOVED events. */
export interface WearState {
  /** null until the bracelet says; unknown counts as worn (readings usually omit the flag). */
  worn: boolean | null;
  /** Time of the information behind `worn`; older information is ignored. */
  changedAt: number | null;
  /** Start of the current off-the-wrist period. */
  notWornSince: number | null;
}

export const UNKNOWN_WEAR: WearState = { worn: null, changedAt: null, notWornSince: null };

function setWorn(wear: WearState, worn: boolean, at: number): WearState {
  if (wear.changedAt !== null && at < wear.changedAt) return wear;
  if (worn) return { worn: true, changedAt: at, notWornSince: null };
  return { worn: false, changedAt: at, notWornSince: wear.worn === false ? wear.notWornSince : at };
}

/** The wear status after an input; a stale reading does not change it. */
export function updateWear(wear: WearState, input: EngineInput, stale: boolean): WearState {
  switch (input.kind) {
    case 'reading':
      return stale || input.worn === undefined
        ? wear
        : setWorn(wear, input.worn, input.at.getTime());
    case 'event':
      switch (input.type) {
        case 'WORN':
          return setWorn(wear, true, input.at.getTime());
        case 'REMOVED':
          return setWorn(wear, false, input.at.getTime());
        case 'SOS':
        case 'FALL':
          return wear;
      }
      break;
    case 'tick':
    case 'confirm':
      return wear;
  }
}
