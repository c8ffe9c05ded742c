import { type GatewayRefusalReason, normalizeSerial } from '@wearable/domain';

/** A refused item as staff see it: why (grouped), whose serial, and the text the gateway got. */
export interface ClassifiedRefusal {
  reason: GatewayRefusalReason;
  /** Normalised; '' when the item named none. */
  serial: string;
  detail: string;
}

/** Stored lengths: a hostile gateway's long texts stay bounded. */
const MAX_DETAIL = 300;
const MAX_SERIAL = 64;

/**
 * The reasons ingestion gives (batch-items.ts, steps/resolve.ts, bracelet-sync.ts), as a table from
 * the text the gateway is told to the group staff see; the first that matches wins.
 */
const REASONS: readonly [RegExp, GatewayRefusalReason][] = [
  [/^unknown bracelet /, 'UNKNOWN_BRACELET'],
  [/^bracelet .* has no wearer$/, 'NO_WEARER'],
  [/^(?:[\w.]+\.)?at: needs a UTC offset/, 'TIME_OFFSET_MISSING'],
  [/^(?:location\.)?at is more than /, 'TIME_OUT_OF_WINDOW'],
  [/ is outside /, 'VALUE_OUT_OF_RANGE'],
];

/** PostgreSQL text cannot hold U+0000 (an item refused for one must not fail the write of all counts). */
const storable = (text: string) => text.replaceAll('\u0000', '\ufffd');

/** Classifies one refused item; `raw` is the item as the gateway sent it (for its serial). */
export function classifyRefusal(reason: string, raw: unknown): ClassifiedRefusal {
  const code = REASONS.find(([pattern]) => pattern.test(reason))?.[1] ?? 'INVALID_ITEM';
  const sent =
    typeof raw === 'object' && raw !== null
      ? (raw as { serialNumber?: unknown }).serialNumber
      : undefined;
  return {
    reason: code,
    serial: typeof sent === 'string' ? storable(normalizeSerial(sent)).slice(0, MAX_SERIAL) : '',
    detail: storable(reason).slice(0, MAX_DETAIL),
  };
}
