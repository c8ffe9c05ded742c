import type { AlertType, DurationFigures, ResponseTimesRow } from '@wearable/domain';
import type { ResponseTimesTypeDb } from './response-times.repository.js';

/**
 * Exact response-time figures from the alerts' times: the seconds per (month, type), concatenated for the month,
 * type and whole-period totals, and the values percentile_cont needs found by selection (linear; SQL sorted all
 * 100,000 values for each of the 4 grouping sets x 3 measures, and sorting or merging sorted runs here cost
 * ~3x the selections). Same numbers as SQL's percentile_cont over
 * extract(epoch FROM t - greatest(opened_at, created_at))::float8: the microseconds are exact integers, divided once.
 *
 * Each time runs from the later of when the alert happened and when the server raised it (migration 048): an
 * alert from data that came late is measured from when anyone could have known of it. The month is the opening's.
 */

type Measure = 'to_notice' | 'to_delivery' | 'to_confirm';
const MEASURES: readonly Measure[] = ['to_notice', 'to_delivery', 'to_confirm'];
const COLUMNS: Record<Measure, 'first_notice_at' | 'first_delivery_at' | 'confirmed_at'> = {
  to_notice: 'first_notice_at',
  to_delivery: 'first_delivery_at',
  to_confirm: 'confirmed_at',
};

interface Cell {
  alerts: number;
  /** Seconds per measure, in no particular order. */
  values: Record<Measure, Float64Array>;
}

/** Microseconds since 2000-01-01 of packed timestamptz_send values (NaN for NULL_INSTANT); exact below 2^53. */
export function unpackInstants(base64: string): Float64Array {
  const bytes = Buffer.from(base64, 'base64');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float64Array(bytes.byteLength / 8);
  for (let i = 0; i < out.length; i++) {
    const high = view.getInt32(i * 8, false);
    const low = view.getUint32(i * 8 + 4, false);
    out[i] = high === -0x80000000 && low === 0 ? NaN : high * 0x100000000 + low;
  }
  return out;
}

/** Microseconds since 2000-01-01 UTC of a Date (whole milliseconds). */
const micros = (d: Date) => (d.getTime() - Date.UTC(2000, 0, 1)) * 1000;

/** Per month of the period (index 0 = first), this type's alerts and their ascending seconds per measure. */
function cellsOfType(t: ResponseTimesTypeDb, bounds: readonly number[]): (Cell | undefined)[] {
  const months = bounds.length - 1;
  const opened = unpackInstants(t.opened_at);
  const raised = unpackInstants(t.raised_at);
  const month = new Int32Array(opened.length);
  const alerts = new Int32Array(months);
  for (let i = 0; i < opened.length; i++) {
    let m = 0;
    while (m + 1 < months && opened[i]! >= bounds[m + 1]!) m++;
    month[i] = m;
    alerts[m]!++;
  }
  const values = {} as Record<Measure, Float64Array[]>;
  for (const measure of MEASURES) {
    const at = unpackInstants(t[COLUMNS[measure]]);
    const counts = new Int32Array(months);
    for (let i = 0; i < at.length; i++) if (!Number.isNaN(at[i]!)) counts[month[i]!]!++;
    const lists = Array.from(counts, (n) => new Float64Array(n));
    const filled = new Int32Array(months);
    for (let i = 0; i < at.length; i++) {
      const v = at[i]!;
      // From whichever is later (a raised_at of NULL_INSTANT cannot happen: created_at is NOT NULL).
      const o = Math.max(opened[i]!, raised[i]!);
      const m = month[i]!;
      // NULL stays out (as in percentile_cont and count(col)); a clock skew below 0 counts as 0.
      if (!Number.isNaN(v)) lists[m]![filled[m]!++] = v < o ? 0 : (v - o) / 1e6;
    }
    values[measure] = lists;
  }
  return Array.from(alerts, (n, m) =>
    n === 0
      ? undefined
      : {
          alerts: n,
          values: {
            to_notice: values.to_notice[m]!,
            to_delivery: values.to_delivery[m]!,
            to_confirm: values.to_confirm[m]!,
          },
        },
  );
}

/** Reorders v[lo..hi] so that v[k] holds the value a sort would put there, none greater before it, none smaller after (Hoare's select). */
function select(v: Float64Array, k: number, lo: number, hi: number): void {
  while (lo < hi) {
    const pivot = v[k]!;
    let i = lo;
    let j = hi;
    do {
      while (v[i]! < pivot) i++;
      while (pivot < v[j]!) j--;
      if (i <= j) {
        const t = v[i]!;
        v[i++] = v[j]!;
        v[j--] = t;
      }
    } while (i <= j);
    if (j < k) lo = i;
    if (k < i) hi = j;
  }
}

/**
 * percentile_cont for each of `ps` (ascending) over the values (reordered in place), with PostgreSQL's
 * arithmetic (orderedsetaggs.c: rows floor and ceil of p * (n - 1), float8_lerp); null when there are none.
 */
export function percentilesCont(values: Float64Array, ps: readonly number[]): (number | null)[] {
  const n = values.length;
  let lo = 0;
  return ps.map((p) => {
    if (n === 0) return null;
    const position = p * (n - 1);
    const first = Math.floor(position);
    select(values, first, lo, n - 1);
    lo = first;
    const low = values[first]!;
    const proportion = position - first;
    if (proportion === 0) return low;
    // The next value in order: the smallest of those after `first`.
    let high = Infinity;
    for (let i = first + 1; i < n; i++) if (values[i]! < high) high = values[i]!;
    return low + proportion * (high - low);
  });
}

function concatenated(runs: readonly Float64Array[]): Float64Array {
  const out = new Float64Array(runs.reduce((n, r) => n + r.length, 0));
  let at = 0;
  for (const r of runs) {
    out.set(r, at);
    at += r.length;
  }
  return out;
}

const round = (v: number | null) => (v === null ? null : Math.round(v * 10) / 10);
function figures(values: Float64Array): DurationFigures {
  const [median = null, p90 = null] = percentilesCont(values, [0.5, 0.9]);
  return { count: values.length, medianSeconds: round(median), p90Seconds: round(p90) };
}

function merged(cells: readonly Cell[]): Cell {
  const values = {} as Record<Measure, Float64Array>;
  for (const m of MEASURES) values[m] = concatenated(cells.map((c) => c.values[m]));
  return { alerts: cells.reduce((n, c) => n + c.alerts, 0), values };
}

function row(month: string | null, type: AlertType | null, c: Cell): ResponseTimesRow {
  return {
    month,
    type,
    alerts: c.alerts,
    toNotice: figures(c.values.to_notice),
    toDelivery: figures(c.values.to_delivery),
    toConfirm: figures(c.values.to_confirm),
  };
}

/**
 * The rows of the figures: per month with alerts (in order) its total then each type, then the whole period's
 * total (always there, as GROUPING SETS' () set) and each type's. `starts`: the month starts and the end of the
 * last month; `label(i)` names month i (0 = first).
 */
export function responseTimesRows(
  types: readonly ResponseTimesTypeDb[],
  starts: readonly Date[],
  label: (month: number) => string,
): ResponseTimesRow[] {
  const bounds = starts.map(micros);
  const byType = [...types]
    .sort((a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : 0))
    .map((t) => ({ type: t.type, cells: cellsOfType(t, bounds) }));
  const rows: ResponseTimesRow[] = [];
  const monthTotals: Cell[] = [];
  for (let m = 0; m < bounds.length - 1; m++) {
    const ofMonth = byType.flatMap((t) => {
      const cell = t.cells[m];
      return cell ? [{ type: t.type, cell }] : [];
    });
    if (ofMonth.length === 0) continue;
    const total = merged(ofMonth.map((c) => c.cell));
    monthTotals.push(total);
    rows.push(row(label(m), null, total), ...ofMonth.map((c) => row(label(m), c.type, c.cell)));
  }
  rows.push(row(null, null, merged(monthTotals)));
  for (const t of byType)
    rows.push(row(null, t.type, merged(t.cells.filter((c): c is Cell => c !== undefined))));
  return rows;
}
