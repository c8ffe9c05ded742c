import { ageOn } from '@wearable/domain';
import type { AppContext } from '../context.js';
import type { SimulatorDriver } from './drivers/driver.js';
import type { SimLogger } from './logger.js';
import type { SimGateway, Simulation } from './simulation.js';

interface LinkedBracelet {
  serialNumber: string;
  gatewayId: string;
  dutyCycleMinutes: number;
  birthDate: string | null;
}

/**
 * The simulated gateways' side of pairing: a bracelet linked to one of the organisation's gateways
 * (POST /v2/user/device/link/gateway) is reported by that gateway `delayMs` after the link (a pairing
 * event, as a real gateway does when it first hears the bracelet), then simulated like the others.
 * Polls the database, so a link made on any server is seen.
 */
export function startPairingWatcher(
  ctx: AppContext,
  organizationId: string,
  sim: Simulation,
  gateways: Map<string, SimGateway>,
  driver: SimulatorDriver,
  log: SimLogger,
  opts: { delayMs: number; pollMs: number },
): { stop(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const poll = async () => {
    const linkedBefore = new Date(ctx.now().getTime() - opts.delayMs);
    const waiting = await ctx.db.query<LinkedBracelet>(
      `SELECT b.serial_number AS "serialNumber", b.gateway_id AS "gatewayId",
              b.heart_rate_duty_cycle AS "dutyCycleMinutes", to_char(u.birth_date, 'YYYY-MM-DD') AS "birthDate"
         FROM bracelets b JOIN users u ON u.id = b.wearer_id AND u.deleted_at IS NULL
        WHERE b.organization_id = $1 AND b.paired_at IS NULL AND b.gateway_id IS NOT NULL
          AND b.linked_at <= $2`,
      [organizationId, linkedBefore],
    );
    for (const b of waiting) {
      if (stopped) return;
      let gateway = gateways.get(b.gatewayId);
      if (!gateway)
        gateways.set(
          b.gatewayId,
          (gateway = { gatewayId: b.gatewayId, credential: '', serialNumbers: [] }),
        );
      const at = ctx.now().toISOString();
      await driver.send(gateway, {
        gatewayId: b.gatewayId,
        readings: [],
        environment: [],
        events: [],
        pairings: [{ serialNumber: b.serialNumber, at }],
      });
      sim.addBracelet(gateway, b.serialNumber, {
        age: b.birthDate ? ageOn(b.birthDate, ctx.now()) : null,
        dutyCycleMinutes: b.dutyCycleMinutes,
      });
      log.info(
        { serialNumber: b.serialNumber, gatewayId: b.gatewayId },
        'simulator: bracelet paired',
      );
    }
  };
  const timer = setInterval(() => {
    running = running
      .then(poll)
      .catch((err: unknown) =>
        log.error({ err: (err as Error).message }, 'simulator: pairing poll failed'),
      );
  }, opts.pollMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
