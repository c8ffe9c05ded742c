import { ageOn } from '@wearable/domain';
import type { AppContext } from '../context.js';
import { initialKeeperState, keeperTurn, type KeeperState } from './demo-keeper.js';
import type { SimulatorDriver } from './drivers/driver.js';
import { createInProcessDriver } from './drivers/in-process.driver.js';
import type { SimEventRecord } from './events.js';
import type { SimLogger } from './logger.js';
import { startPairingWatcher } from './pairing-watcher.js';
import { BatchSender, runSimulation } from './runner.js';
import { defaultShiftPlan, type ShiftPlanItem } from './shift-plan.js';
import { type SimGateway, Simulation } from './simulation.js';
import {
  countOpenEmergencies,
  findDemoOrganization,
  findOrganizationBracelets,
  latestReadingAt,
} from './simulator.repository.js';

export interface DemoSimulatorOptions {
  /** Simulate this organisation instead of the demo one (tests). */
  organization?: { id: string; timeZone: string };
  seed?: number;
  /** History sent once at start so charts are not empty (resumes after the newest reading). */
  backfillHours?: number;
  /** How often collected items are handed to ingestion. */
  intervalMs?: number;
  /** Random events per hour on top of the shift plan (default 0: the plan alone). */
  eventsPerHour?: number;
  /** The scripted working day (default: defaultShiftPlan over the organisation's bracelets). */
  plan?: ShiftPlanItem[];
  /** Start even when no bracelet is worn yet (one may be linked and paired later; tests). */
  startEmpty?: boolean;
  /** How often the pairing watcher looks for newly linked bracelets (default 2 s). */
  pairingPollMs?: number;
  /**
   * How often, once live, the demo keeps its incidents going (an open emergency, a bracelet off, a mistyped
   * serial: demo-keeper.ts); 0 turns it off. Default 60 s.
   */
  keeperMs?: number;
}

export interface DemoSimulator {
  wearers: number;
  stop(): Promise<void>;
}

export interface SimulationSource {
  gateways: SimGateway[];
  wearers: Record<string, { age: number | null; dutyCycleMinutes: number }>;
}

/** The simulator's view of an organisation's gateways and worn bracelets. */
export async function loadOrganizationSource(
  ctx: AppContext,
  organizationId: string,
): Promise<SimulationSource> {
  const bracelets = await findOrganizationBracelets(ctx.db, organizationId);
  const gateways = new Map<string, SimGateway>();
  const wearers: SimulationSource['wearers'] = {};
  for (const b of bracelets) {
    let g = gateways.get(b.gatewayId);
    if (!g)
      gateways.set(
        b.gatewayId,
        (g = { gatewayId: b.gatewayId, credential: '', serialNumbers: [] }),
      );
    g.serialNumbers.push(b.serialNumber);
    wearers[b.serialNumber] = {
      age: b.birthDate ? ageOn(b.birthDate, ctx.now()) : null,
      dutyCycleMinutes: b.dutyCycleMinutes,
    };
  }
  return { gateways: [...gateways.values()], wearers };
}

/**
 * The live demo inside `start`: simulates the demo organisation's wearers in real time and
 * feeds the ingestion service directly, so readings, rollups and real alerts appear without
 * any gateway. Returns null when there is no demo organisation. Runs in the background;
 * stop() ends it (call it before the database closes).
 */
export async function startDemoSimulator(
  ctx: AppContext,
  log: SimLogger,
  opts: DemoSimulatorOptions = {},
): Promise<DemoSimulator | null> {
  const org = opts.organization ?? (await findDemoOrganization(ctx.db));
  if (!org) {
    log.info({}, 'simulator: no demo organisation, not started');
    return null;
  }
  const source = await loadOrganizationSource(ctx, org.id);
  const wearers = Object.keys(source.wearers).length;
  if (wearers === 0 && !opts.startEmpty) {
    log.info({ organizationId: org.id }, 'simulator: the demo organisation has no worn bracelets');
    return null;
  }
  const now = ctx.now();
  const backfillFrom = now.getTime() - (opts.backfillHours ?? 3) * 3_600_000;
  const latest = await latestReadingAt(ctx.db, org.id);
  const start = new Date(Math.max(backfillFrom, Math.min(latest?.getTime() ?? 0, now.getTime())));

  let live = false;
  let backfilledEvents = 0;
  const onEvent = (event: SimEventRecord) => {
    if (live)
      log.info(
        { simulated: event },
        `simulator: ${event.kind} ${event.serialNumber ?? event.gatewayId}`,
      );
    else backfilledEvents++;
  };
  const sim = new Simulation({
    seed: opts.seed ?? 2026,
    start,
    gateways: source.gateways,
    wearers: source.wearers,
    timeZone: org.timeZone,
    eventsPerHour: opts.eventsPerHour ?? 0,
    plan: opts.plan ?? defaultShiftPlan(source.gateways.flatMap((g) => g.serialNumbers)),
    onEvent,
  });
  const driver = createInProcessDriver(ctx, org.id);
  const senderGateways = new Map(source.gateways.map((g) => [g.gatewayId, g]));
  const sender = new BatchSender(driver, senderGateways, log);
  const pairing = startPairingWatcher(ctx, org.id, sim, senderGateways, driver, log, {
    delayMs: ctx.config.simulatorPairingDelaySeconds * 1000,
    pollMs: opts.pairingPollMs ?? 2000,
  });
  const controller = new AbortController();
  // Read through ctx.now at each step, so a test that moves the clock moves the simulation with it.
  const clock = () => ctx.now();
  const running = (async () => {
    await runSimulation(sim, sender, {
      mode: 'fast',
      now: clock,
      stepMs: 10 * 60_000,
      signal: controller.signal,
    });
    if (controller.signal.aborted) return;
    log.info(
      {
        organizationId: org.id,
        wearers,
        from: start.toISOString(),
        ...sender.stats,
        events: backfilledEvents,
      },
      'simulator: demo history sent, now live',
    );
    live = true;
    const keeping = keepIncidents(ctx, org.id, sim, driver, source, log, {
      everyMs: opts.keeperMs ?? 60_000,
      signal: controller.signal,
    });
    await runSimulation(sim, sender, {
      mode: 'realtime',
      now: clock,
      batchIntervalMs: opts.intervalMs ?? 2000,
      signal: controller.signal,
    });
    await keeping;
  })().catch((err: unknown) =>
    log.error({ err: (err as Error).message }, 'simulator: stopped on an error'),
  );
  log.info(
    { organizationId: org.id, wearers, gateways: source.gateways.length },
    'simulator: demo started',
  );

  return {
    wearers,
    async stop() {
      controller.abort();
      await pairing.stop();
      await running;
    },
  };
}

/**
 * Once a minute while live (until `signal` aborts): the keeper's turn (demo-keeper.ts) on the open emergencies of
 * the organisation. Its SOS, fall and removal are the simulation's own events, sent with the next batch; its mistyped
 * serial is a reading through the first gateway, refused and listed on that gateway's page like any.
 */
async function keepIncidents(
  ctx: AppContext,
  organizationId: string,
  sim: Simulation,
  driver: SimulatorDriver,
  source: SimulationSource,
  log: SimLogger,
  { everyMs, signal }: { everyMs: number; signal: AbortSignal },
): Promise<void> {
  if (everyMs <= 0) return;
  const serialNumbers = source.gateways.flatMap((g) => g.serialNumbers);
  const gateway = source.gateways[0];
  let state: KeeperState = initialKeeperState(ctx.now().getTime());
  while (!signal.aborted) {
    try {
      const turn = keeperTurn(
        state,
        {
          now: ctx.now().getTime(),
          openEmergencies: await countOpenEmergencies(ctx.db, organizationId),
        },
        serialNumbers,
      );
      state = turn.state;
      for (const action of turn.actions) {
        if (action.kind === 'typo') {
          if (gateway)
            await driver.send(gateway, {
              gatewayId: gateway.gatewayId,
              readings: [
                {
                  serialNumber: action.serialNumber,
                  at: ctx.now().toISOString(),
                  heartRate: 72,
                  worn: true,
                },
              ],
              environment: [],
              events: [],
            });
        } else sim.trigger(action.kind, action.serialNumber, action.durationMinutes);
        log.info({ keeper: action }, `simulator: demo keeps ${action.kind} ${action.serialNumber}`);
      }
    } catch (err) {
      if (signal.aborted) return;
      log.warn({ err: (err as Error).message }, 'simulator: the demo keeper missed a turn');
    }
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, everyMs);
      signal.addEventListener('abort', done, { once: true });
    });
  }
}
