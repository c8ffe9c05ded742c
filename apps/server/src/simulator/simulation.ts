import type { BraceletReading } from '@wearable/domain';
import { climateAt, type SiteKind } from './environment.js';
import {
  applyWearerEvent,
  drawDuration,
  eligibleForEvent,
  pickEventKind,
  type SimEventKind,
  type SimEventRecord,
} from './events.js';
import { localTimeIn } from './local-time.js';
import { initialWearerState, stepWearer, type WearerState } from './physiology.js';
import { Outbox, type OutboundBatch, type OutboundItem } from './outbox.js';
import { createRng, deriveSeed, type Rng } from './prng.js';
import type { ShiftPlanItem } from './shift-plan.js';
import { buildWearerProfile, type WearerProfile } from './wearer-profile.js';

export type { OutboundBatch } from './outbox.js';

/** A gateway the simulator speaks for, with the bracelets that report through it. */
export interface SimGateway {
  gatewayId: string;
  credential: string;
  serialNumbers: string[];
  /**
   * Default: from the wearers' ages when known (mostly 65 or older: a care home, indoors;
   * otherwise a hot outdoor site); with no ages, outdoor and indoor alternate.
   */
  site?: SiteKind;
}

export interface SimulationOptions {
  seed: number;
  start: Date;
  gateways: SimGateway[];
  /** Known facts about wearers (age from the birth date, duty cycle) by serial number. */
  wearers?: Record<string, { age?: number | null; dutyCycleMinutes?: number }>;
  timeZone?: string;
  /** Random notable events per hour over the whole simulation (0: none). Default 12. */
  eventsPerHour?: number;
  /** Scripted events on every working day (Monday to Saturday) at local times; none by default. */
  plan?: ShiftPlanItem[];
  onEvent?: (event: SimEventRecord) => void;
}

interface GatewayModel {
  spec: SimGateway;
  site: SiteKind;
  rng: Rng;
  phaseSeconds: number;
  silentUntil: number;
  /** WBGT without any heat episode: what an episode's extra is measured from. */
  baseWbgt: number;
  wbgt: number;
  temperature: number;
  heat: { from: number; until: number; extra: number } | null;
}

interface WearerModel {
  profile: WearerProfile;
  state: WearerState;
  rng: Rng;
  gateway: GatewayModel;
}

const iso = (ms: number) => new Date(ms).toISOString();

function defaultSite(
  spec: SimGateway,
  index: number,
  wearers: SimulationOptions['wearers'],
): SiteKind {
  const ages = spec.serialNumbers
    .map((serial) => wearers?.[serial]?.age)
    .filter((age): age is number => typeof age === 'number');
  if (ages.length === 0) return index % 2 === 0 ? 'outdoor' : 'indoor';
  return ages.filter((age) => age >= 65).length * 2 > ages.length ? 'indoor' : 'outdoor';
}

/**
 * The simulated world, stepped minute by minute on a clock the caller moves (wall clock or a
 * virtual one). Same seed and start time: the same items, however the caller batches them.
 */
export class Simulation {
  readonly wearers: WearerModel[] = [];
  private readonly gateways = new Map<string, GatewayModel>();
  private readonly rng: Rng;
  private readonly localTime: ReturnType<typeof localTimeIn>;
  private readonly outbox = new Outbox();
  private readonly forced: { kind: SimEventKind; target: string | undefined; duration?: number }[] =
    [];
  private nextMinute: number;

  constructor(private readonly opts: SimulationOptions) {
    this.rng = createRng(deriveSeed(opts.seed, 'events'));
    this.localTime = localTimeIn(opts.timeZone ?? 'Asia/Tokyo');
    this.nextMinute = Math.floor(opts.start.getTime() / 60_000);
    opts.gateways.forEach((spec, index) => {
      const gateway = this.addGatewayModel(spec, index);
      for (const serialNumber of spec.serialNumbers)
        this.addWearerModel(gateway, serialNumber, opts.wearers?.[serialNumber]);
    });
  }

  private addGatewayModel(spec: SimGateway, index: number): GatewayModel {
    const rng = createRng(deriveSeed(this.opts.seed, 'gateway', spec.gatewayId));
    const gateway: GatewayModel = {
      spec,
      site: spec.site ?? defaultSite(spec, index, this.opts.wearers),
      rng,
      phaseSeconds: rng.int(0, 59),
      silentUntil: 0,
      baseWbgt: 25,
      wbgt: 25,
      temperature: 25,
      heat: null,
    };
    this.gateways.set(spec.gatewayId, gateway);
    return gateway;
  }

  private addWearerModel(
    gateway: GatewayModel,
    serialNumber: string,
    known?: { age?: number | null; dutyCycleMinutes?: number },
  ): void {
    const profile = buildWearerProfile(this.opts.seed, {
      serialNumber,
      gatewayId: gateway.spec.gatewayId,
      pattern: gateway.site === 'outdoor' ? 'site-worker' : 'care-resident',
      age: known?.age,
      dutyCycleMinutes: known?.dutyCycleMinutes,
    });
    const wearerRng = createRng(deriveSeed(this.opts.seed, 'wearer', serialNumber));
    const state = initialWearerState(profile, wearerRng);
    this.wearers.push({ profile, state, rng: wearerRng, gateway });
  }

  /** Whether a bracelet is simulated already. */
  simulates(serialNumber: string): boolean {
    return this.wearers.some((w) => w.profile.serialNumber === serialNumber);
  }

  /** A bracelet paired after the start: simulated from the next minute on, through its gateway (added if new). */
  addBracelet(
    gateway: SimGateway,
    serialNumber: string,
    known?: { age?: number | null; dutyCycleMinutes?: number },
  ): void {
    if (this.simulates(serialNumber)) return;
    const model =
      this.gateways.get(gateway.gatewayId) ?? this.addGatewayModel(gateway, this.gateways.size);
    model.spec.serialNumbers.push(serialNumber);
    this.addWearerModel(model, serialNumber, known);
  }

  /** Where the model's clock stands: everything up to here has been generated. */
  get cursor(): Date {
    return new Date(this.nextMinute * 60_000);
  }

  /** Makes an event happen at the next simulated minute (CLI, tests). */
  trigger(kind: SimEventKind, target?: string, durationMinutes?: number): void {
    this.forced.push({ kind, target, duration: durationMinutes });
  }

  /** Steps the model up to t and returns every item measured at or before t, per gateway. */
  advanceTo(t: Date): OutboundBatch[] {
    const until = t.getTime();
    while (this.nextMinute * 60_000 <= until) this.stepMinute(this.nextMinute++);
    return this.outbox.release(until, this.opts.onEvent);
  }

  private queue(q: OutboundItem): void {
    // A silent gateway sends nothing: its bracelets' readings are lost, as with a dead uplink.
    if (this.gateways.get(q.gatewayId)!.silentUntil > q.at) return;
    this.outbox.push(q);
  }

  private stepMinute(minute: number): void {
    const start = minute * 60_000;
    const local = this.localTime(minute);
    this.startEvents(minute, local);
    for (const g of this.gateways.values()) {
      let extra = 0;
      if (g.heat) {
        const progress = (minute - g.heat.from) / Math.max(1, g.heat.until - g.heat.from);
        extra = g.heat.extra * Math.min(1, progress / 0.5, Math.max(0, 1 - (progress - 1) * 4));
        if (progress >= 1.25) g.heat = null;
      }
      const climate = climateAt(
        g.site,
        this.opts.seed,
        g.spec.gatewayId,
        local.minuteOfDay,
        local.dayNumber,
        g.rng,
        extra,
      );
      g.baseWbgt = climate.wbgt - extra;
      g.wbgt = climate.wbgt;
      g.temperature = climate.temperature;
      const at = start + g.phaseSeconds * 1000;
      this.queue({
        at,
        gatewayId: g.spec.gatewayId,
        list: 'environment',
        item: { at: iso(at), ...climate },
      });
    }
    for (const w of this.wearers) this.stepOneWearer(w, minute, local);
  }

  private stepOneWearer(
    w: WearerModel,
    minute: number,
    local: ReturnType<Simulation['localTime']>,
  ): void {
    const { profile: p, state: s, gateway: g } = w;
    const sample = stepWearer(
      p,
      s,
      { minute, ...local, wbgt: g.wbgt, temperature: g.temperature },
      w.rng,
    );
    const start = minute * 60_000;
    if (sample.wearChange) {
      const at = start + w.rng.int(0, 59) * 1000;
      this.queue({
        at,
        gatewayId: g.spec.gatewayId,
        list: 'events',
        item: { serialNumber: p.serialNumber, type: sample.wearChange, at: iso(at) },
      });
    }
    // Out of the gateway's reach: nothing measured now is ever heard.
    if (s.outOfRangeUntil !== null) return;
    const phaseMinute = Math.floor(p.phaseSeconds / 60);
    if (minute % p.dutyCycleMinutes !== phaseMinute) return;
    const at = start + (p.phaseSeconds % 60) * 1000;
    const reading: BraceletReading = {
      serialNumber: p.serialNumber,
      at: iso(at),
      worn: sample.worn,
      steps: s.steps,
      battery: Math.round(s.battery),
    };
    if (sample.worn) {
      reading.heartRate = sample.heartRate;
      reading.skinTemperature = sample.skinTemperature;
      reading.stressLevel = sample.stressLevel;
      if (sample.sleepStage !== undefined) reading.sleepStage = sample.sleepStage;
    }
    s.steps = 0;
    this.queue({ at, gatewayId: g.spec.gatewayId, list: 'readings', item: reading });
  }

  private startEvents(minute: number, local: ReturnType<Simulation['localTime']>): void {
    const { minuteOfDay, weekday } = local;
    const rate = this.opts.eventsPerHour ?? 12;
    const starts: { kind: SimEventKind; target: string | undefined; duration?: number }[] = [];
    if (weekday >= 1 && weekday <= 6) {
      for (const item of this.opts.plan ?? []) {
        if (item.minuteOfDay !== minuteOfDay || !this.simulates(item.serialNumber)) continue;
        starts.push({ kind: item.kind, target: item.serialNumber, duration: item.durationMinutes });
      }
    }
    starts.push(...this.forced.splice(0));
    if (rate > 0 && this.rng.chance(Math.min(1, rate / 60))) {
      const daytime = minuteOfDay >= 8 * 60 && minuteOfDay < 18 * 60;
      starts.push({ kind: pickEventKind(this.rng, daytime), target: undefined });
    }
    for (const { kind, target, duration } of starts)
      this.startEvent(kind, target, duration, minute);
  }

  private startEvent(
    kind: SimEventKind,
    target: string | undefined,
    duration: number | undefined,
    minute: number,
  ): void {
    const durationMinutes = duration ?? drawDuration(kind, this.rng);
    const at = minute * 60_000 + this.rng.int(0, 59) * 1000;
    if (kind === 'gateway-silent') {
      const gateways = [...this.gateways.values()];
      const g = target
        ? this.gateways.get(target)
        : gateways.length
          ? this.rng.pick(gateways)
          : undefined;
      if (!g) return;
      g.silentUntil = at + durationMinutes * 60_000;
      this.outbox.announce({ kind, at: iso(at), gatewayId: g.spec.gatewayId, durationMinutes });
      return;
    }
    const candidates = target
      ? this.wearers.filter((w) => w.profile.serialNumber === target)
      : this.wearers.filter((w) => eligibleForEvent(kind, w.state));
    if (candidates.length === 0) return;
    const w = this.rng.pick(candidates);
    const g = w.gateway;
    if (kind === 'heat-episode') {
      // The site heats up too, enough for WBGT to pass the 31 C heatstroke line.
      g.heat = {
        from: minute,
        until: minute + durationMinutes,
        extra: Math.max(1.5, 32.5 - g.baseWbgt),
      };
    }
    const deviceEvent = applyWearerEvent(kind, w.state, minute, durationMinutes, w.rng);
    if (deviceEvent) {
      this.queue({
        at,
        gatewayId: g.spec.gatewayId,
        list: 'events',
        item: { serialNumber: w.profile.serialNumber, type: deviceEvent, at: iso(at) },
      });
    }
    this.outbox.announce({
      kind,
      at: iso(at),
      gatewayId: g.spec.gatewayId,
      serialNumber: w.profile.serialNumber,
      durationMinutes,
    });
  }
}
