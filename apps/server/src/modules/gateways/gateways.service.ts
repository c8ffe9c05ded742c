import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  type Actor,
  type DeleteGatewayResponse,
  GATEWAY_ONLINE_MS,
  type GatewayDetail,
  type GatewayListItem,
  type GatewayKind,
  type GatewayType,
  GATEWAY_KIND_MQTT,
  gatewayTopics,
  kindUsesPathSecret,
} from '@wearable/domain';
import { accessService } from '../../access/access.service.js';
import type { AppContext } from '../../context.js';
import {
  BUS_EVENTS,
  type BraceletChangedEvent,
  type GatewayCredentialChangedEvent,
} from '../../bus/events.js';
import { notifyWearerUpdated } from '../../bus/wearer-updates.js';
import { ApiError, conflict, notFound } from '../../errors.js';
import { auditService } from '../audit/audit.service.js';
import { type GatewayRow, gatewaysRepository } from './gateways.repository.js';
import { linksReachOnlyThisMachine, mqttBrokerAddress } from '../../public-address.js';

export type { GatewayRow };

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** online while the last batch is younger than GATEWAY_ONLINE_MS; offline since it aged out. */
export function gatewayStatus(lastSeenAt: Date | string | null, now: Date) {
  if (lastSeenAt === null) return { status: 'offline' as const, offlineSince: null };
  const until = new Date(lastSeenAt).getTime() + GATEWAY_ONLINE_MS;
  return until >= now.getTime()
    ? { status: 'online' as const, offlineSince: null }
    : { status: 'offline' as const, offlineSince: new Date(until).toISOString() };
}

export function toGatewayListItem(r: GatewayRow, now: Date): GatewayListItem {
  return {
    id: r.id,
    clientId: r.organizationId,
    name: r.name,
    type: r.type,
    kind: r.kind,
    serialNumber: r.serialNumber,
    groupId: r.groupId,
    groupName: r.groupName,
    ...gatewayStatus(r.lastSeenAt, now),
    lastSeenAt: iso(r.lastSeenAt),
    braceletCount: r.braceletCount,
    ...(r.lastRefusalAt !== undefined ? { lastRefusalAt: iso(r.lastRefusalAt) } : {}),
    report:
      r.statusAt === null
        ? null
        : {
            at: new Date(r.statusAt).toISOString(),
            battery: r.statusBattery,
            charging: r.statusCharging,
            appVersion: r.statusAppVersion,
          },
    ...(r.type === 'SMARTPHONE'
      ? {
          phoneCarrier: {
            shared: r.phoneShared,
            wearer:
              r.phoneWearerId !== null && r.phoneWearerName !== null
                ? { id: r.phoneWearerId, name: r.phoneWearerName }
                : null,
          },
          phoneFailure: r.phoneFailure
            ? { at: r.phoneFailure.at, type: r.phoneFailure.type, reason: r.phoneFailure.reason }
            : null,
        }
      : {}),
  };
}

/** A new gateway credential: only its SHA-256 is stored; it is shown once (registration, rotation, a phone's enrolment). */
export function newCredential() {
  const credential = randomBytes(32).toString('base64url');
  return { credential, hash: createHash('sha256').update(credential).digest('hex') };
}

const invalid = (path: string, message: string) =>
  new ApiError(400, 'VALIDATION_FAILED', `${path}: ${message}`, [{ path, message }]);

/** Gateways of an organisation: registration (credential shown once), rotation, status. */
export function gatewaysService(ctx: AppContext) {
  const repo = gatewaysRepository(ctx.db);
  const access = accessService(ctx.db);

  /** Devices that can send only a URL get a secret path segment too: also kept only as a hash. */
  const newPathSecret = (kind: GatewayKind) =>
    kindUsesPathSecret(kind) ? newCredential() : { credential: null, hash: null };
  const connection = (
    gatewayId: string,
    credential: string,
    kind: GatewayKind,
    pathSecret: string | null,
  ) => ({
    serverUrl: ctx.config.publicUrl,
    gatewayId,
    credential,
    // Each kind's own topic, from the one table the console's instructions read too.
    mqttTopic: GATEWAY_KIND_MQTT[kind]?.(gatewayId) ?? null,
    mqttResultsTopic: gatewayTopics.results(gatewayId),
    mqttBroker: mqttBrokerAddress(ctx.config),
    localOnlyLinks: linksReachOnlyThisMachine(ctx.config),
    kind,
    pathSecret,
  });

  /** A group given for a gateway must be one of the organisation's groups the actor may manage gateways in. */
  async function checkGroup(
    actor: Actor,
    organizationId: string,
    groupId: string | null | undefined,
    path: string,
  ) {
    if (!groupId) return;
    const found = (await access.permitted(actor, 'gateway:manage', 'group', [groupId])).get(
      groupId,
    );
    if (!found || found.organizationId !== organizationId)
      throw invalid(path, `group ${groupId} not found in this organisation`);
  }

  return {
    async register(
      actor: Actor,
      body: {
        clientId: string;
        type: GatewayType;
        kind?: GatewayKind | undefined;
        serialNumber: string;
        name: string;
        groupId?: string | null | undefined;
      },
    ) {
      await access.require(actor, 'gateway:manage', 'organization', body.clientId);
      await checkGroup(actor, body.clientId, body.groupId, 'body.groupId');
      const id = `gw-${randomUUID()}`;
      const { credential, hash } = newCredential();
      const kind = body.kind ?? 'native';
      const path = newPathSecret(kind);
      const after = {
        type: body.type,
        kind,
        serialNumber: body.serialNumber,
        name: body.name,
        groupId: body.groupId ?? null,
      };
      const inserted = await ctx.db.transaction(async (tx) => {
        const ok = await gatewaysRepository(tx).insert({
          id,
          organizationId: body.clientId,
          ...after,
          credentialHash: hash,
          pathSecretHash: path.hash,
          at: ctx.now(),
        });
        if (ok)
          await auditService(tx).record({
            organizationId: body.clientId,
            actorId: actor.uid,
            kind: 'gateway.change',
            targetId: id,
            after,
          });
        return ok;
      });
      if (!inserted)
        throw conflict(
          `serialNumber: gateway ${body.serialNumber} is already registered`,
          'GATEWAY_SERIAL_TAKEN',
        );
      const row = (await repo.find(id))!;
      return {
        gateway: toGatewayListItem(row, ctx.now()),
        connection: connection(id, credential, kind, path.credential),
      };
    },

    /** A new credential; the old one is refused from now on (caches dropped through the bus). */
    async rotate(actor: Actor, gatewayId: string) {
      const at = await access.require(actor, 'gateway:manage', 'gateway', gatewayId);
      const { credential, hash } = newCredential();
      const { kind } = (await repo.find(gatewayId)) ?? { kind: 'native' as const };
      const path = newPathSecret(kind);
      await ctx.db.transaction(async (tx) => {
        await gatewaysRepository(tx).setCredentialHash(gatewayId, hash, path.hash);
        await auditService(tx).record({
          organizationId: at.organizationId,
          actorId: actor.uid,
          kind: 'gateway.change',
          targetId: gatewayId,
          after: { credential: 'rotated' },
        });
      });
      const event: GatewayCredentialChangedEvent = { gatewayId };
      ctx.bus.emit(BUS_EVENTS.gatewayCredentialChanged, event);
      return connection(gatewayId, credential, kind, path.credential);
    },

    /** Retires a gateway: its credential is refused at once (as a rotation), its bracelets are unlinked. */
    async remove(actor: Actor, gatewayId: string): Promise<DeleteGatewayResponse> {
      const at = await access.require(actor, 'gateway:manage', 'gateway', gatewayId);
      const unlinked = await ctx.db.transaction(async (tx) => {
        const r = gatewaysRepository(tx);
        const row = await r.find(gatewayId);
        if (!row) return null; // removed meanwhile
        const unlinked = await r.remove(gatewayId);
        const before = {
          type: row.type,
          serialNumber: row.serialNumber,
          name: row.name,
          groupId: row.groupId,
          bracelets: row.braceletCount,
        };
        await auditService(tx).record({
          organizationId: at.organizationId,
          actorId: actor.uid,
          kind: 'gateway.change',
          targetId: gatewayId,
          before,
        });
        return unlinked;
      });
      if (unlinked === null) throw notFound(`gateway ${gatewayId} not found`);
      const event: GatewayCredentialChangedEvent = { gatewayId };
      ctx.bus.emit(BUS_EVENTS.gatewayCredentialChanged, event);
      // Ingestion forgets the bracelets' cached rows; screens refresh their wearers (now unpaired).
      for (const b of unlinked) {
        const changed: BraceletChangedEvent = {
          organizationId: at.organizationId,
          serialNumber: b.serialNumber,
        };
        ctx.bus.emit(BUS_EVENTS.braceletChanged, changed);
        if (b.wearerId)
          notifyWearerUpdated(ctx, {
            organizationId: at.organizationId,
            groupId: b.groupId,
            wearerId: b.wearerId,
          });
      }
      return { gatewayId, unlinkedBracelets: unlinked.length };
    },

    async update(
      actor: Actor,
      gatewayId: string,
      patch: { name?: string | undefined; groupId?: string | null | undefined },
    ) {
      const at = await access.require(actor, 'gateway:manage', 'gateway', gatewayId);
      await checkGroup(actor, at.organizationId, patch.groupId, 'body.groupId');
      await repo.update(gatewayId, patch);
      return toGatewayListItem((await repo.find(gatewayId))!, ctx.now());
    },

    async list(actor: Actor, organizationId: string, groupId?: string): Promise<GatewayListItem[]> {
      await access.require(
        actor,
        'gateway:read',
        groupId ? 'group' : 'organization',
        groupId ?? organizationId,
      );
      // The list's warning badge counts this server's refusals not yet written too.
      await ctx.gatewayRefusals.flush();
      const now = ctx.now();
      return (await repo.list(organizationId, groupId))
        .filter((g) =>
          access.may(actor, 'gateway:read', {
            organizationId,
            groupIds: g.groupId ? [g.groupId] : [],
          }),
        )
        .map((g) => toGatewayListItem(g, now));
    },

    async detail(actor: Actor, gatewayId: string): Promise<GatewayDetail> {
      await access.require(actor, 'gateway:read', 'gateway', gatewayId);
      // Its warning badge counts this server's refusals not yet written too.
      await ctx.gatewayRefusals.flush(gatewayId);
      const [row, bracelets, environment] = await Promise.all([
        repo.find(gatewayId),
        repo.braceletsBehind(gatewayId),
        repo.latestEnvironment(gatewayId),
      ]);
      const item = toGatewayListItem(row!, ctx.now());
      return {
        ...item,
        lastBatchAt: item.lastSeenAt,
        bracelets: bracelets.map(({ pairedAt, ...b }) => ({ ...b, isPaired: pairedAt !== null })),
        environment: environment && { ...environment, at: new Date(environment.at).toISOString() },
      };
    },

    async environment(
      actor: Actor,
      gatewayId: string,
      q: { from?: string | undefined; to?: string | undefined; points: number },
    ) {
      await access.require(actor, 'gateway:read', 'gateway', gatewayId);
      const to = q.to ? new Date(q.to) : ctx.now();
      const from = q.from ? new Date(q.from) : new Date(to.getTime() - 24 * 3_600_000);
      if (from.getTime() >= to.getTime()) throw invalid('query.from', 'must be before to');
      const rows = await repo.environment(gatewayId, from, to, q.points);
      return { gatewayId, points: rows.map((r) => ({ ...r, at: new Date(r.at).toISOString() })) };
    },
  };
}
export type GatewaysService = ReturnType<typeof gatewaysService>;
