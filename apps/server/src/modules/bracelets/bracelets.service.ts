import { randomUUID } from 'node:crypto';
import type { Actor, BraceletView, DeviceSetting } from '@wearable/domain';
import { accessService, notFoundError } from '../../access/access.service.js';
import type { AppContext } from '../../context.js';
import { BUS_EVENTS, type BraceletChangedEvent } from '../../engine/events.js';
import { notifyWearerUpdated } from '../../engine/wearer-updates.js';
import { ApiError, conflict } from '../../errors.js';
import { type BraceletRecord, braceletsRepository } from './bracelets.repository.js';

const invalid = (path: string, message: string) =>
  new ApiError(400, 'VALIDATION_FAILED', `${path}: ${message}`, [{ path, message }]);

const toView = (b: BraceletRecord): BraceletView => ({
  wearableId: b.id,
  clientId: b.organizationId,
  serialNumber: b.serialNumber,
  deviceName: b.deviceName,
  firmware: b.firmware,
  uid: b.wearerId,
  gatewayId: b.gatewayId,
});
const isPaired = (b: BraceletRecord | null) => !!b && b.gatewayId !== null && b.pairedAt !== null;

/**
 * Bracelets: registration, linking to a wearer and a gateway (the pairing), hand-over, unlinking, and
 * the device setting. Readings keep the wearer they were stored for, so a hand-over never moves history;
 * bracelet_assignments records who wore it when.
 */
export function braceletsService(ctx: AppContext) {
  const repo = braceletsRepository(ctx.db);
  const access = accessService(ctx.db);

  /** After a commit: ingestion forgets the bracelet's cached look-ups, screens refresh the wearers. */
  function changed(
    b: { organizationId: string; serialNumber: string },
    wearers: { id: string; groupId: string | null }[],
  ) {
    const event: BraceletChangedEvent = {
      organizationId: b.organizationId,
      serialNumber: b.serialNumber,
    };
    ctx.bus.emit(BUS_EVENTS.braceletChanged, event);
    for (const w of wearers)
      notifyWearerUpdated(ctx, {
        organizationId: b.organizationId,
        groupId: w.groupId,
        wearerId: w.id,
      });
  }

  return {
    async register(
      actor: Actor,
      body: {
        mediromOrganizationId: string;
        serialNumber: string;
        deviceName?: string | undefined;
        firmware?: string | undefined;
      },
    ) {
      await access.require(actor, 'bracelet:register', 'organization', body.mediromOrganizationId);
      const id = `brc-${randomUUID()}`;
      const inserted = await repo.insert(
        {
          id,
          organizationId: body.mediromOrganizationId,
          serialNumber: body.serialNumber,
          deviceName: body.deviceName ?? body.serialNumber,
          firmware: body.firmware ?? null,
        },
        ctx.now(),
      );
      if (!inserted)
        throw conflict(
          `serialNumber: bracelet ${body.serialNumber} is already registered`,
          'BRACELET_SERIAL_TAKEN',
        );
      // A gateway that heard this serial as an unknown device makes its next advertisement a reading.
      changed({ organizationId: body.mediromOrganizationId, serialNumber: body.serialNumber }, []);
      return toView((await repo.find(id))!);
    },

    /** The pairing modal: bracelet (by serial) to wearer and gateway; paired once the gateway reports it. */
    async linkGateway(
      actor: Actor,
      body: {
        clientId: string;
        uid: string;
        gatewayId: string;
        serialNumber: string;
        deviceName?: string | undefined;
      },
    ) {
      const wearer = await access.require(actor, 'bracelet:pair', 'wearer', body.uid);
      if (wearer.organizationId !== body.clientId)
        throw invalid('body.uid', `wearer ${body.uid} is not in organisation ${body.clientId}`);
      const gateway = await access.require(actor, 'bracelet:pair', 'gateway', body.gatewayId);
      if (gateway.organizationId !== body.clientId) throw notFoundError('gateway', body.gatewayId);
      const now = ctx.now();
      const touched: { id: string; groupId: string | null }[] = [
        { id: body.uid, groupId: wearer.groupIds?.[0] ?? null },
      ];
      const bracelet = await repo.findBySerial(body.serialNumber);
      // Another organisation's bracelet answers as an unknown one: serial numbers do not leak.
      if (!bracelet || bracelet.organizationId !== body.clientId)
        throw notFoundError('bracelet', body.serialNumber);
      const handOver = bracelet.wearerId !== null && bracelet.wearerId !== body.uid;
      if (handOver) {
        // A hand-over: the actor must reach the bracelet where it is now (its wearer's group).
        const from = await access.require(actor, 'bracelet:pair', 'bracelet', bracelet.id);
        touched.push({ id: bracelet.wearerId!, groupId: from.groupIds?.[0] ?? null });
      }
      // Access is decided above, outside the transaction (an embedded database has one connection).
      const result = await ctx.db.transaction(async (tx) => {
        const txRepo = braceletsRepository(tx);
        const locked = await txRepo.findBySerial(body.serialNumber, true);
        if (locked?.wearerId !== bracelet.wearerId)
          throw conflict(
            'serialNumber: the bracelet changed hands meanwhile; try again',
            'BRACELET_CHANGED',
          );
        if (handOver) await txRepo.endAssignment(bracelet.id, now);
        const previous = await txRepo.findByWearer(body.uid);
        if (previous && previous.id !== bracelet.id) await txRepo.endAssignment(previous.id, now);
        if (bracelet.wearerId !== body.uid)
          await txRepo.startAssignment(bracelet.id, body.uid, now);
        await txRepo.linkGateway(bracelet.id, body.gatewayId, body.deviceName, now);
        return { bracelet, previous };
      });
      changed(result.bracelet, touched);
      if (result.previous && result.previous.id !== result.bracelet.id)
        changed(result.previous, []);
      const linked = (await repo.find(result.bracelet.id))!;
      return { device: toView(linked), isPaired: isPaired(linked) };
    },

    async unlinkGateway(actor: Actor, wearableId: string) {
      const at = await access.require(actor, 'bracelet:pair', 'bracelet', wearableId);
      const bracelet = (await repo.find(wearableId))!;
      await repo.unlinkGateway(wearableId);
      changed(
        bracelet,
        bracelet.wearerId ? [{ id: bracelet.wearerId, groupId: at.groupIds?.[0] ?? null }] : [],
      );
      const now = (await repo.find(wearableId))!;
      return { device: toView(now), isPaired: false };
    },

    /** Takes the bracelet off its wearer (their history stays theirs); it stays registered. */
    async unlink(actor: Actor, wearableId: string) {
      const at = await access.require(actor, 'bracelet:pair', 'bracelet', wearableId);
      const bracelet = (await repo.find(wearableId))!;
      await ctx.db.transaction((tx) =>
        braceletsRepository(tx).endAssignment(wearableId, ctx.now()),
      );
      changed(
        bracelet,
        bracelet.wearerId ? [{ id: bracelet.wearerId, groupId: at.groupIds?.[0] ?? null }] : [],
      );
      return { device: toView((await repo.find(wearableId))!), isPaired: false };
    },

    async isPaired(actor: Actor, uid: string): Promise<{ isPaired: boolean }> {
      await access.require(actor, 'bracelet:read', 'wearer', uid);
      return { isPaired: isPaired(await repo.findByWearer(uid)) };
    },

    async setting(actor: Actor, uid: string): Promise<DeviceSetting> {
      await access.require(actor, 'bracelet:read', 'wearer', uid);
      const b = await repo.findByWearer(uid);
      if (!b) throw new ApiError(404, 'DEVICE_NOT_LINKED', `Wearer ${uid} has no bracelet`);
      const pending = b.configVersion > b.appliedConfigVersion;
      return {
        uid,
        wearableId: b.id,
        serialNumber: b.serialNumber,
        deviceName: b.deviceName,
        heartRateDutyCycle: b.dutyCycle,
        // Never changed since registration: the bracelet runs its factory setting.
        appliedDutyCycle: b.configVersion === 0 ? b.dutyCycle : b.appliedDutyCycle,
        configStatus: pending ? 'pending' : 'applied',
        battery: b.battery,
        firmware: b.firmware,
        gatewayId: b.gatewayId,
        gatewayName: b.gatewayName,
        gatewayType: b.gatewayType,
        isPaired: isPaired(b),
      };
    },

    async updateSetting(
      actor: Actor,
      uid: string,
      patch: { deviceName?: string | undefined; heartRateDutyCycle?: number | undefined },
    ) {
      const at = await access.require(actor, 'bracelet:pair', 'wearer', uid);
      const b = await repo.findByWearer(uid);
      if (!b) throw new ApiError(404, 'DEVICE_NOT_LINKED', `Wearer ${uid} has no bracelet`);
      await repo.updateSetting(b.id, {
        deviceName: patch.deviceName,
        dutyCycle: patch.heartRateDutyCycle,
      });
      changed(b, [{ id: uid, groupId: at.groupIds?.[0] ?? null }]);
      return this.setting(actor, uid);
    },
  };
}
export type BraceletsService = ReturnType<typeof braceletsService>;
