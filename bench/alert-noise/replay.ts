// alert-noise: a simulated hot shift replayed through today's rule set (old-engine/, a copy kept only
// here) and through the product's engine (apps/server/src/engine), with the site's notification
// recipients modelled. Counts, not timing: alerts per wearer-hour by type and level, notifications per
// recipient-hour, whether each planted true event alerted and how late, alerts on unstrained workers.
import { parseArgs } from 'node:util';
import {
  ALERT_LEVEL_OF,
  ALERT_POLICY_DEFAULTS,
  ALERT_LEVELS,
  ALERT_TYPES,
  PHYSIOLOGICAL_ALERT_TYPES,
  replayNotices,
  initialSiteHeatState,
  siteHeatNoticeOf,
  siteHeatStep,
  type AlertLevel,
  type AlertType,
  type OfferedNotice,
  type SiteHeatChange,
  type SiteHeatLevel,
} from '@wearable/domain';
import { alertEngine as productEngine } from '../../apps/server/src/engine/alert-engine.js';
import type {
  EngineEffect,
  EngineInput,
  WearerProfile,
} from '../../apps/server/src/engine/types.js';
import { Simulation } from '../../apps/server/src/simulator/simulation.js';
import {
  defaultShiftPlan,
  type ShiftPlanItem,
} from '../../apps/server/src/simulator/shift-plan.js';
import { alertEngine as oldEngine } from './old-engine/alert-engine.js';

const { values } = parseArgs({
  options: {
    wearers: { type: 'string', default: '200' },
    hours: { type: 'string', default: '8' },
    from: { type: 'string', default: '09:00' },
    date: { type: 'string', default: '2026-07-21' },
    seed: { type: 'string', default: '14' },
    strained: { type: 'string', default: '6' },
    recipients: { type: 'string', default: '3' },
    plan: { type: 'string', default: 'bench' },
    'confirm-minutes': { type: 'string' },
  },
});

const MINUTE = 60_000;
const TIME_ZONE = 'Asia/Tokyo';
const wearerCount = Number(values.wearers);
const hours = Number(values.hours);
const recipients = Number(values.recipients);
/** Staff confirm every alert this long after it opens (default: nobody confirms, the worst case). */
const confirmMs =
  values['confirm-minutes'] === undefined ? null : Number(values['confirm-minutes']) * MINUTE;
const hhmm = (s: string) => Number(s.slice(0, 2)) * 60 + Number(s.slice(3, 5));
const clock = (minuteOfDay: number) =>
  `${String(Math.floor(minuteOfDay / 60)).padStart(2, '0')}:${String(minuteOfDay % 60).padStart(2, '0')}`;
// Tokyo has no daylight saving: local = UTC + 9 h.
const start = Date.parse(`${values.date}T00:00:00Z`) + (hhmm(values.from) - 9 * 60) * MINUTE;
const end = start + hours * 60 * MINUTE;
const startMinuteOfDay = hhmm(values.from);

const serials = Array.from(
  { length: wearerCount },
  (_, i) => `NOISE-${String(i + 1).padStart(4, '0')}`,
);

/**
 * The planted true events: k strained workers spread over the shift (their strain lasts to its
 * end), SOS and falls at known times, bracelets taken off and wearers out of range.
 */
function benchPlan(): ShiftPlanItem[] {
  const k = Number(values.strained);
  const span = hours * 60;
  const at = (share: number) => startMinuteOfDay + Math.round(span * share);
  const who = (i: number) => serials[(i * 37 + 11) % serials.length]!;
  const plan: ShiftPlanItem[] = [];
  for (let i = 0; i < k; i++) {
    const begins = at(0.15 + (0.65 * i) / Math.max(1, k - 1));
    plan.push({
      kind: 'strain',
      serialNumber: who(i),
      minuteOfDay: begins,
      durationMinutes: startMinuteOfDay + span - begins,
    });
  }
  [0.1, 0.3, 0.55, 0.9].forEach((s, i) =>
    plan.push({ kind: 'sos', serialNumber: who(k + i), minuteOfDay: at(s) }),
  );
  [0.15, 0.45, 0.8].forEach((s, i) =>
    plan.push({ kind: 'fall', serialNumber: who(k + 4 + i), minuteOfDay: at(s) }),
  );
  [0.12, 0.5, 0.82].forEach((s, i) =>
    plan.push({
      kind: 'removed',
      serialNumber: who(k + 7 + i),
      minuteOfDay: at(s),
      durationMinutes: 30,
    }),
  );
  [0.3, 0.62].forEach((s, i) =>
    plan.push({
      kind: 'out-of-range',
      serialNumber: who(k + 10 + i),
      minuteOfDay: at(s),
      durationMinutes: 40,
    }),
  );
  return plan;
}

const plan = values.plan === 'demo' ? defaultShiftPlan(serials) : benchPlan();
// Only what begins inside the replayed window is a planted event of this run.
const planted = plan.filter(
  (p) => p.minuteOfDay >= startMinuteOfDay && p.minuteOfDay < startMinuteOfDay + hours * 60,
);

// ---- The simulated shift, as the engine's inputs per wearer (time order) ----

const sim = new Simulation({
  seed: Number(values.seed),
  start: new Date(start),
  gateways: [{ gatewayId: 'site-1', credential: '', serialNumbers: serials, site: 'outdoor' }],
  wearers: Object.fromEntries(serials.map((s) => [s, { dutyCycleMinutes: 1 }])),
  timeZone: TIME_ZONE,
  eventsPerHour: 0,
  plan,
});
const inputs = new Map<string, EngineInput[]>(serials.map((s) => [s, []]));
const wbgtByHour = new Map<number, number>();
/** The site's environment readings in time order (the site heat level is computed from them). */
const environment: { at: number; wbgt: number }[] = [];
let wbgt: number | undefined;
for (let t = start; t < end; t += MINUTE) {
  const items: { at: number; apply: () => void }[] = [];
  for (const batch of sim.advanceTo(new Date(t + MINUTE - 1))) {
    for (const e of batch.environment) {
      const at = Date.parse(e.at);
      items.push({
        at,
        apply: () => {
          wbgt = e.wbgt ?? wbgt;
          if (e.wbgt !== undefined) environment.push({ at, wbgt: e.wbgt });
          const hour = Math.floor((at - start) / 3_600_000);
          wbgtByHour.set(hour, Math.max(wbgtByHour.get(hour) ?? 0, e.wbgt ?? 0));
        },
      });
    }
    for (const r of batch.readings) {
      const at = Date.parse(r.at);
      items.push({
        at,
        apply: () => {
          const input: EngineInput = { kind: 'reading', at: new Date(at) };
          if (r.heartRate !== undefined) input.heartRate = r.heartRate;
          if (r.skinTemperature !== undefined) input.skinTemperature = r.skinTemperature;
          if (r.worn !== undefined) input.worn = r.worn;
          if (r.sleepStage !== undefined) input.sleepStage = r.sleepStage;
          if (r.stressLevel !== undefined) input.stressLevel = r.stressLevel;
          if (r.steps !== undefined) input.steps = r.steps;
          if (r.battery !== undefined) input.battery = r.battery;
          // The newest WBGT of the wearer's gateway, as ingestion attaches it.
          if (wbgt !== undefined) input.wbgt = wbgt;
          inputs.get(r.serialNumber)!.push(input);
        },
      });
    }
    for (const e of batch.events) {
      const at = Date.parse(e.at);
      items.push({
        at,
        apply: () =>
          inputs.get(e.serialNumber)!.push({ kind: 'event', at: new Date(at), type: e.type }),
      });
    }
  }
  items.sort((a, b) => a.at - b.at);
  for (const item of items) item.apply();
  // The runner's minute tick (DISCONNECTION, NON_WEARING timers) at the end of each minute.
  for (const list of inputs.values()) list.push({ kind: 'tick', at: new Date(t + MINUTE - 1) });
}

// ---- Both engines over the same inputs ----

interface Opened {
  serialNumber: string;
  type: AlertType;
  level: AlertLevel;
  at: number;
  notify: boolean;
  /** The rule that opened it (the cause), e.g. wbgt-high. */
  rule: string;
  /** When it closed (recovered), if it did within the shift. */
  closedAt: number | null;
}

interface Engine {
  initialState(): unknown;
  step(
    profile: WearerProfile,
    state: unknown,
    input: EngineInput,
  ): { state: unknown; effects: EngineEffect[] };
}

const settings = {};
function run(engine: Engine): Opened[] {
  const opened: Opened[] = [];
  for (const w of sim.wearers) {
    const profile: WearerProfile = {
      wearerId: w.profile.serialNumber,
      organizationId: 'bench',
      groupId: null,
      age: w.profile.age,
      dutyCycleMinutes: w.profile.dutyCycleMinutes,
      timeZone: TIME_ZONE,
      settings,
      // The organisation's recovery window (today's engine has none and ignores it).
      recoveryMinutes: ALERT_POLICY_DEFAULTS.recoveryMinutes,
    };
    let state = engine.initialState();
    // Staff confirm each alert this long after it opened, if it is still open (--confirm-minutes).
    const pending: { at: number; alertType: AlertType }[] = [];
    const apply = (input: EngineInput) => {
      const result = engine.step(profile, state, input);
      state = result.state;
      for (const e of result.effects) {
        if (e.kind === 'close') {
          const open = opened.findLast(
            (a) => a.serialNumber === w.profile.serialNumber && a.type === e.alertType,
          );
          if (open && open.closedAt === null) open.closedAt = e.at.getTime();
          continue;
        }
        opened.push({
          serialNumber: w.profile.serialNumber,
          type: e.alertType,
          level: e.level,
          at: e.at.getTime(),
          notify: e.notify,
          rule: e.cause.rule,
          closedAt: null,
        });
        if (confirmMs !== null)
          pending.push({ at: e.at.getTime() + confirmMs, alertType: e.alertType });
      }
    };
    for (const input of inputs.get(w.profile.serialNumber)!) {
      while (pending.length > 0 && pending[0]!.at <= input.at.getTime()) {
        const { at, alertType } = pending.shift()!;
        apply({ kind: 'confirm', at: new Date(at), alertType });
      }
      apply(input);
    }
  }
  return opened.sort((a, b) => a.at - b.at);
}

// ---- Notifications per recipient ----

/** One entry of a recipient's notification log: a message sent, or (sent: false) one withheld. */
interface Sent {
  at: number;
  channel: 'SMS' | 'PHONE_CALL';
  emergency: boolean;
  /** Why it went or not: the notice policy's reason, or 'alert' for today's one message per alert. */
  reason: string;
  sent: boolean;
}

/**
 * Today's notifier: every notified alert is one message to each recipient (SMS, step 1; no
 * escalation calls modelled). The recipients are alike, so one recipient's list stands for each.
 */
function todaysNotices(alerts: Opened[]): Sent[] {
  return alerts
    .filter((a) => a.notify)
    .map((a) => ({
      at: a.at,
      channel: 'SMS' as const,
      emergency: a.level === 'EMERGENCY',
      reason: 'alert',
      sent: true,
    }));
}

// The site's heat level with its hysteresis (the domain's siteHeatStep, default policy) over the
// shift's environment readings, from NORMAL at the start. It decides the inhibition at DANGER, and
// each change the product notifies (siteHeatNoticeOf: a rise, or a fall below SEVERE) is one SMS
// to each recipient: the group's heat contacts are the same people here.
const siteLevels: { at: number; level: SiteHeatLevel }[] = [];
const siteChanges: SiteHeatChange[] = [];
{
  let state = initialSiteHeatState();
  for (const e of environment) {
    const step = siteHeatStep(
      state,
      { at: new Date(e.at), wbgt: e.wbgt },
      ALERT_POLICY_DEFAULTS,
      TIME_ZONE,
    );
    state = step.state;
    if (step.change) siteChanges.push(step.change);
    siteLevels.push({ at: e.at, level: state.level });
  }
}

/** The site's heat level after its newest environment reading at that moment. */
function siteLevelAt(at: number): SiteHeatLevel | null {
  return siteLevels.findLast((s) => s.at <= at)?.level ?? null;
}

/** The site notices: one message per notified change of level (a call only to call recipients). */
function siteNotices(): Sent[] {
  return siteChanges
    .filter((c) => siteHeatNoticeOf(c.from, c.to) !== null)
    .map((c) => ({
      at: c.at.getTime(),
      channel: 'SMS' as const,
      emergency: false,
      reason: 'siteHeat',
      sent: true,
    }));
}

/**
 * The product's notifier: the pure notice policy (packages/domain notice-policy.ts, default
 * policy: group window 2 min, repeat 30 min, 6 SMS an hour, EMERGENCY never grouped) replayed for
 * one recipient's SMS bucket. Each notified alert is offered when it opens; a non-EMERGENCY alert
 * still open is offered again every repeat interval (a reminder), as the server's sweep does.
 * Nobody confirms in the bench, so an open alert keeps reminding until it recovers: the worst case.
 */
function policyNotices(alerts: Opened[]): Sent[] {
  const personal: Sent[] = replayNotices(
    offeredOf(alerts),
    { ...ALERT_POLICY_DEFAULTS },
    'SMS',
  ).map((n) => ({
    at: n.at.getTime(),
    channel: 'SMS' as const,
    emergency: n.reason === 'emergency',
    reason: n.reason,
    sent: n.sent,
  }));
  return [...personal, ...siteNotices()].sort((x, y) => x.at - y.at);
}

/**
 * A chat channel (Slack, Teams, LINE WORKS: decision 0022) as a group's recipient: the same offers to its
 * own bucket (one per organisation and channel), capped with the SMS cap. Its sent messages' times.
 */
function bucketNotices(
  alerts: Opened[],
  channel: 'SMS' | 'SLACK',
): { at: number; emergency: boolean }[] {
  return replayNotices(offeredOf(alerts), { ...ALERT_POLICY_DEFAULTS }, channel)
    .filter((n) => n.sent)
    .map((n) => ({ at: n.at.getTime(), emergency: n.reason === 'emergency' }));
}

/** Each notified alert offered when it opens, and again every repeat interval while open (reminders). */
function offeredOf(alerts: Opened[]): OfferedNotice[] {
  const repeat = ALERT_POLICY_DEFAULTS.repeatIntervalMinutes * MINUTE;
  const offered: OfferedNotice[] = [];
  for (const a of alerts) {
    if (!a.notify) continue;
    const item = { type: a.type, level: a.level, siteHeatLevel: siteLevelAt(a.at) };
    offered.push({ at: new Date(a.at), item });
    if (a.level === 'EMERGENCY') continue;
    for (let t = a.at + repeat; t < (a.closedAt ?? end); t += repeat) {
      offered.push({
        at: new Date(t),
        item: { ...item, siteHeatLevel: siteLevelAt(t), lastNoticeAt: new Date(t - repeat) },
      });
    }
  }
  offered.sort((x, y) => x.at.getTime() - y.at.getTime());
  return offered;
}
const productNotices = policyNotices;
const productNoticesLabel = `the notice policy, default settings, ${
  confirmMs === null ? 'nobody confirming' : `each alert confirmed after ${confirmMs / MINUTE} min`
}, plus the site notices`;

// ---- Figures ----

const wearerHours = wearerCount * hours;
const old = run(oldEngine);
const now = run(productEngine);
const strainedSerials = new Set(
  planted.filter((p) => p.kind === 'strain').map((p) => p.serialNumber),
);
const pad = (s: string | number, n: number) => String(s).padEnd(n);
const num = (v: number, digits = 3) => v.toFixed(digits);
const row = (label: string, a: string | number, b: string | number, w = 46) =>
  console.log(`  ${pad(label, w)} ${pad(a, 36)} ${b}`);

console.log(
  `alert-noise: ${wearerCount} wearers at one outdoor site, ${values.date} ${values.from} + ${hours} h ` +
    `(Asia/Tokyo), seed ${values.seed}, plan ${values.plan}, ${recipients} recipients (SMS), ` +
    (confirmMs === null
      ? 'nobody confirms'
      : `alerts confirmed ${confirmMs / MINUTE} min after opening`),
);
console.log(
  `  site WBGT, hourly max: ${[...wbgtByHour.entries()]
    .map(([h, v]) => `${clock(startMinuteOfDay + h * 60)} ${v.toFixed(1)}`)
    .join(', ')}`,
);
console.log(
  `  site heat level (product): ${siteChanges
    .map(
      (c) =>
        `${clock(startMinuteOfDay + Math.round((c.at.getTime() - start) / MINUTE))} ${c.from} -> ${c.to}`,
    )
    .join(', ')}`,
);
console.log(
  `  readings ${[...inputs.values()].flat().filter((i) => i.kind === 'reading').length}, ` +
    `planted events ${planted.length}`,
);
console.log('');
row('', "today's engine", "product's engine");

console.log('\nalerts per wearer-hour, by type');
for (const type of ALERT_TYPES) {
  const a = old.filter((x) => x.type === type).length;
  const b = now.filter((x) => x.type === type).length;
  if (a + b === 0) continue;
  row(
    `${type} (${ALERT_LEVEL_OF[type]})`,
    `${num(a / wearerHours)} (${a})`,
    `${num(b / wearerHours)} (${b})`,
  );
}
console.log('alerts per wearer-hour, by level');
for (const level of ALERT_LEVELS) {
  const a = old.filter((x) => x.level === level).length;
  const b = now.filter((x) => x.level === level).length;
  row(level, `${num(a / wearerHours)} (${a})`, `${num(b / wearerHours)} (${b})`);
}
row(
  'all',
  `${num(old.length / wearerHours)} (${old.length})`,
  `${num(now.length / wearerHours)} (${now.length})`,
);

const oldSent = todaysNotices(old);
const nowSent = productNotices(now);
console.log(`\nnotifications per recipient-hour (product: ${productNoticesLabel})`);
const perRecipientHour = (sent: Sent[], emergency: boolean, channel: Sent['channel']) =>
  sent.filter((s) => s.sent && s.emergency === emergency && s.channel === channel).length / hours;
/** The most SMS outside EMERGENCY in any 60 minutes from one message (the cap's hour). */
const busiestHour = (log: Sent[]) => {
  const times = log.filter((s) => s.sent && !s.emergency && s.channel === 'SMS').map((s) => s.at);
  return Math.max(0, ...times.map((t) => times.filter((u) => u >= t && u < t + 3_600_000).length));
};
for (const channel of ['SMS', 'PHONE_CALL'] as const) {
  for (const emergency of [false, true]) {
    row(
      `${channel}${emergency ? ', EMERGENCY' : ', outside EMERGENCY'}`,
      num(perRecipientHour(oldSent, emergency, channel), 2),
      num(perRecipientHour(nowSent, emergency, channel), 2),
    );
  }
}
row('SMS outside EMERGENCY, busiest hour', busiestHour(oldSent), busiestHour(nowSent));
const reasons = new Set(
  [...oldSent, ...nowSent].map((s) => `${s.sent ? 'sent' : 'withheld'} ${s.reason}`),
);
for (const key of [...reasons].sort().reverse()) {
  const count = (log: Sent[]) =>
    log.filter((s) => `${s.sent ? 'sent' : 'withheld'} ${s.reason}` === key).length;
  row(`  log entries: ${key}`, count(oldSent), count(nowSent));
}
// A chat channel as a recipient (decision 0022), against one SMS recipient's own bucket (site notices aside):
// never more messages per recipient-hour than SMS.
const busiestOf = (times: number[]) =>
  Math.max(0, ...times.map((t) => times.filter((u) => u >= t && u < t + 3_600_000).length));
const bucketRows = Object.fromEntries(
  (['SMS', 'SLACK'] as const).map((channel) => {
    const sent = bucketNotices(now, channel);
    const outside = sent.filter((c) => !c.emergency).map((c) => c.at);
    return [
      channel,
      {
        outside: num(outside.length / hours, 2),
        emergency: num(sent.filter((c) => c.emergency).length / hours, 2),
        busiest: busiestOf(outside),
      },
    ];
  }),
);
console.log('\none recipient bucket, product (SMS | a chat channel: Slack, Teams or LINE WORKS)');
row('outside EMERGENCY, per hour', bucketRows.SMS!.outside, bucketRows.SLACK!.outside);
row('EMERGENCY, per hour', bucketRows.SMS!.emergency, bucketRows.SLACK!.emergency);
row('outside EMERGENCY, busiest hour', bucketRows.SMS!.busiest, bucketRows.SLACK!.busiest);

/**
 * The first alert that answers a planted event: its kind's alert for that wearer at or after it
 * began. A strain is answered only by an alert on the person's own body: today's WBGT-only
 * HEATSTROKE (rule wbgt-high) fires on everyone at a hot site, so it says nothing about them.
 */
const personal = (a: Opened) =>
  PHYSIOLOGICAL_ALERT_TYPES.includes(a.type) && a.rule !== 'wbgt-high';
const answers: Record<ShiftPlanItem['kind'], (a: Opened) => boolean> = {
  sos: (a) => a.type === 'SOS_CALL',
  fall: (a) => a.type === 'DETECT_FALL_DOWN',
  strain: personal,
  removed: (a) => a.type === 'NON_WEARING',
  'out-of-range': (a) => a.type === 'DISCONNECTION',
  'heat-episode': personal,
  'high-heart-rate': personal,
  'gateway-silent': (a) => a.type === 'DISCONNECTION',
};
const dayStart = start - startMinuteOfDay * MINUTE;
function delay(alerts: Opened[], p: ShiftPlanItem): { minutes: number; type: AlertType } | null {
  const begins = dayStart + p.minuteOfDay * MINUTE;
  const hit = alerts.find(
    (a) => a.serialNumber === p.serialNumber && a.at >= begins && answers[p.kind](a),
  );
  return hit ? { minutes: (hit.at - begins) / MINUTE, type: hit.type } : null;
}
const show = (d: ReturnType<typeof delay>) =>
  d ? `+${d.minutes.toFixed(1)} min ${d.type}` : 'MISSED';
console.log('\nplanted true events: alerted, and how long after the event began');
const targeted = new Set<ShiftPlanItem['kind']>(['sos', 'fall', 'strain']);
let missed = 0;
let later = 0;
for (const p of planted) {
  const a = delay(old, p);
  const b = delay(now, p);
  row(`${clock(p.minuteOfDay)} ${p.kind} ${p.serialNumber}`, show(a), show(b));
  if (!targeted.has(p.kind)) continue;
  if (!b) missed++;
  else if (a && b.minutes > a.minutes + 1e-9) later++;
}

console.log('\nalerts on unstrained workers (personal types), by level');
const unstrained = (alerts: Opened[], level: AlertLevel) =>
  alerts.filter(
    (a) =>
      a.level === level &&
      PHYSIOLOGICAL_ALERT_TYPES.includes(a.type) &&
      !strainedSerials.has(a.serialNumber),
  ).length;
for (const level of ['CRITICAL', 'CAUTION'] as const)
  row(level, unstrained(old, level), unstrained(now, level));
const people = (alerts: Opened[]) =>
  new Set(
    alerts
      .filter(
        (a) => PHYSIOLOGICAL_ALERT_TYPES.includes(a.type) && !strainedSerials.has(a.serialNumber),
      )
      .map((a) => a.serialNumber),
  ).size;
row('unstrained workers with any personal alert', people(old), people(now));
const rules = new Set([...old, ...now].map((a) => `${a.type} ${a.rule}`));
for (const key of [...rules].sort()) {
  const count = (alerts: Opened[]) =>
    alerts.filter(
      (a) =>
        `${a.type} ${a.rule}` === key &&
        PHYSIOLOGICAL_ALERT_TYPES.includes(a.type) &&
        !strainedSerials.has(a.serialNumber),
    ).length;
  if (count(old) + count(now) > 0) row(`  of which ${key}`, count(old), count(now));
}

const smsOutside = (sent: Sent[]) => perRecipientHour(sent, false, 'SMS');
const targets: [string, boolean, boolean][] = [
  ['planted SOS, falls and strained workers: 0 missed', countMissed(old) === 0, missed === 0],
  ["each no later than today's engine", true, later === 0],
  [
    'personal CRITICAL on unstrained workers: 0',
    unstrained(old, 'CRITICAL') === 0,
    unstrained(now, 'CRITICAL') === 0,
  ],
  [
    'all alerts <= 0.2 per wearer-hour',
    old.length / wearerHours <= 0.2,
    now.length / wearerHours <= 0.2,
  ],
  [
    'SMS per recipient-hour <= 6 outside EMERGENCY',
    smsOutside(oldSent) <= 6,
    smsOutside(nowSent) <= 6,
  ],
];
function countMissed(alerts: Opened[]): number {
  return planted.filter((p) => targeted.has(p.kind) && !delay(alerts, p)).length;
}
console.log('\ntargets');
const verdict = (ok: boolean) => (ok ? 'pass' : 'FAIL');
for (const [label, a, b] of targets) row(label, verdict(a), verdict(b));
