import { randomUUID } from 'node:crypto';
import {
  type Actor,
  type BraceletView,
  type DeviceSetting,
  normalizeSerial,
  phoneBraceletSerial,
} from '@wearable/domain';
import { accessService, notFoundError } from '../../access/access.service.js';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/client.js';
import { BUS_EVENTS, type BraceletChangedEvent } from '../../bus/events.js';
import { notifyWearerUpdated } from '../../bus/wearer-updates.js';
import { ApiError, conflict } from '../../errors.js';
import { type BraceletRecord, braceletsRepository } from './bracelets.repository.js';

const invalid = (path: string, message: string) =>
  new ApiError(400, 'VALIDATION_FAILED', `${path}: ${message}`, [{ path, message }]);

const toView = (b: BraceletRecord): BraceletView => ({
  wearableId: b.id,
  clientId: b.organizationId,
  serialNumber: b.serialNumber,
  deviceName: b.deviceName,
  model: b.model,
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
    /** After a commit elsewhere (an import): the same refreshes as a registration or pairing. */
    announce(b: { organizationId: string; serialNumber: string }, wearerIds: string[]) {
      changed(
        b,
        wearerIds.map((id) => ({ id, groupId: null })),
      );
    },

    /**
     * The one place that decides whose SOS and falls a phone gateway sends (issue 34), inside the
     * caller's transaction (enrolment, or a shared phone's choice; access decided by the caller). The
     * phone's own bracelet `PHONE-<gatewayId>` is created if missing, linked to the gateway and paired
     * (a phone hears itself) to the wearer, or to nobody (`wearerId` null: a shared phone before its
     * person is chosen). A wearer has one bracelet: one who already wears another keeps it, and the
     * phone sends for that bracelet instead. Returns the serial the phone sends for and `changed`, to
     * call after the commit.
     */
    async pairPhone(
      tx: Queryable,
      phone: {
        organizationId: string;
        gatewayId: string;
        gatewayName: string;
        wearerId: string | null;
      },
    ): Promise<{ serialNumber: string; changed: () => void }> {
      const txRepo = braceletsRepository(tx);
      const now = ctx.now();
      const serialNumber = phoneBraceletSerial(phone.gatewayId);
      let own = await txRepo.findBySerial(serialNumber, true);
      if (!own) {
        await txRepo.insert(
          {
            id: `brc-${randomUUID()}`,
            organizationId: phone.organizationId,
            serialNumber,
            deviceName: phone.gatewayName,
            firmware: null,
          },
          now,
        );
        own = (await txRepo.findBySerial(serialNumber, true))!;
      }
      // Serial numbers are global; another organisation's PHONE-<id> cannot exist (gateway ids are ours).
      if (own.organizationId !== phone.organizationId)
        throw conflict(
          `serialNumber: ${serialNumber} belongs to another organisation`,
          'BRACELET_SERIAL_TAKEN',
        );
      const worn = phone.wearerId === null ? null : await txRepo.findByWearer(phone.wearerId);
      const wearsAnother = worn !== null && worn.id !== own.id;
      const carrier = wearsAnother ? null : phone.wearerId;
      const touched: { id: string; groupId: string | null }[] = [];
      if (own.wearerId !== null && own.wearerId !== carrier) {
        await txRepo.endAssignment(own.id, now);
        touched.push({ id: own.wearerId, groupId: null });
      }
      if (carrier !== null && own.wearerId !== carrier) {
        await txRepo.startAssignment(own.id, carrier, now);
        touched.push({ id: carrier, groupId: null });
      }
      await txRepo.linkGateway(own.id, phone.gatewayId, undefined, now);
      await txRepo.markPaired(own.id, now);
      const bracelet = { organizationId: phone.organizationId, serialNumber };
      return {
        serialNumber: wearsAnother ? worn.serialNumber : serialNumber,
        changed: () => changed(bracelet, touched),
      };
    },

    async register(
      actor: Actor,
      body: {
        mediromOrganizationId: string;
        serialNumber: string;
        deviceName?: string | undefined;
        model?: string | undefined;
        firmware?: string | undefined;
      },
    ) {
      await access.require(actor, 'bracelet:register', 'organization', body.mediromOrganizationId);
      // Stored as every look-up matches it (case and spaces do not make another bracelet).
      const serialNumber = normalizeSerial(body.serialNumber);
      const id = `brc-${randomUUID()}`;
      const inserted = await repo.insert(
        {
          id,
          organizationId: body.mediromOrganizationId,
          serialNumber,
          deviceName: body.deviceName ?? serialNumber,
          model: body.model ?? null,
          firmware: body.firmware ?? null,
        },
        ctx.now(),
      );
      if (!inserted)
        throw conflict(
          `serialNumber: bracelet ${serialNumber} is already registered`,
          'BRACELET_SERIAL_TAKEN',
        );
      // A gateway that heard this serial as an unknown device makes its next advertisement a reading.
      changed({ organizationId: body.mediromOrganizationId, serialNumber }, []);
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
      const serialNumber = normalizeSerial(body.serialNumber);
      const bracelet = await repo.findBySerial(serialNumber);
      // Another organisation's bracelet answers as an unknown one: serial numbers do not leak.
      if (!bracelet || bracelet.organizationId !== body.clientId)
        throw notFoundError('bracelet', serialNumber);
      const handOver = bracelet.wearerId !== null && bracelet.wearerId !== body.uid;
      if (handOver) {
        // A hand-over: the actor must reach the bracelet where it is now (its wearer's group).
        const from = await access.require(actor, 'bracelet:pair', 'bracelet', bracelet.id);
        touched.push({ id: bracelet.wearerId!, groupId: from.groupIds?.[0] ?? null });
      }
      // Access is decided above, outside the transaction (an embedded database has one connection).
      const result = await ctx.db.transaction(async (tx) => {
        const txRepo = braceletsRepository(tx);
        const locked = await txRepo.findBySerial(serialNumber, true);
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

/**
 * What another module's transaction may do with bracelets (the wearer import pairs them): find
 * and lock by serial number, see who wears what, start a wearer's period with a bracelet.
 */
export function braceletsInTransaction(tx: Queryable) {
  const repo = braceletsRepository(tx);
  return {
    lockBySerials: (serials: string[]) => repo.lockBySerials(serials),
    findByWearer: (wearerId: string) => repo.findByWearer(wearerId),
    startAssignment: (braceletId: string, wearerId: string, at: Date) =>
      repo.startAssignment(braceletId, wearerId, at),
  };
}
