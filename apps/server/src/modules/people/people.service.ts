import { randomUUID } from 'node:crypto';
import {
  type Actor,
  type CreateWearerRequest,
  type FamilyMember,
  type Person,
  type PersonKind,
  PLATFORM,
  type UpdateUserRequest,
} from '@wearable/domain';
import { accessService, notFoundError } from '../../access/access.service.js';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/client.js';
import { ApiError, forbidden, notFound } from '../../errors.js';
import { notifyWearerUpdated } from '../../bus/wearer-updates.js';
import { auditService } from '../audit/audit.service.js';
import { peopleRepository, type PersonRow } from './people.repository.js';

const userNotFound = (uid: string) => notFound(`User ${uid} not found`, 'USER_NOT_FOUND');
/** A 400 naming the field, as the validation errors do. */
const fieldError = (field: string, message: string, code = 'BAD_REQUEST') =>
  new ApiError(400, code, `${field}: ${message}`, [{ path: field, message }]);

/**
 * Wearers of one organisation by name, for the imports (a bracelet file names its wearers; the
 * wearer file finds the wearers it made before). Access is the caller's to check on the ids.
 */
export function wearerDirectory(db: Queryable) {
  return {
    async byName(organizationId: string, names: string[]): Promise<Map<string, string[]>> {
      const rows = await peopleRepository(db).wearersNamed(organizationId, names);
      const map = new Map<string, string[]>();
      for (const r of rows) map.set(r.name, [...(map.get(r.name) ?? []), r.id]);
      return map;
    },
  };
}

/** Wearers, family members and one's own profile (the people half of the console). */
export function peopleService(ctx: AppContext) {
  const repo = peopleRepository(ctx.db);
  const access = accessService(ctx.db);

  /** The person if the actor reaches them (404 otherwise, the same answer as for an unknown uid). */
  async function reachable(
    actor: Actor,
    uid: string,
  ): Promise<{ row: PersonRow; kind: PersonKind }> {
    const row = await repo.find(uid);
    if (!row) throw userNotFound(uid);
    const kind = row.kind;
    if (uid === actor.uid) return { row, kind };
    if (kind === 'WEARER') {
      await access.require(actor, 'wearer:read', 'wearer', uid);
      return { row, kind };
    }
    if (kind === 'FAMILY') {
      // Family members are read by the staff of a wearer they are linked to, not by other families.
      const seen = await access.permitted(actor, 'member:read', 'wearer', row.linked_wearer_ids);
      if (seen.size) return { row, kind };
      throw userNotFound(uid);
    }
    const at = row.organization_id === null ? PLATFORM : { organizationId: row.organization_id };
    if (access.may(actor, row.organization_id === null ? 'user:lookup' : 'member:read', at))
      return { row, kind };
    throw userNotFound(uid);
  }

  async function view(actor: Actor, row: PersonRow, kind: PersonKind): Promise<Person> {
    const linked = await access.permitted(actor, 'wearer:read', 'wearer', row.linked_wearer_ids);
    return {
      uid: row.id,
      kind,
      role: (row.role as Person['role']) ?? null,
      name: row.name,
      nameReading: row.name_reading,
      clientId: row.organization_id,
      groupId: row.group_id,
      groupName: row.group_name,
      birthDate: row.birth_date,
      email: row.email,
      phoneNumber: row.phone_number,
      linkedWearers:
        kind === 'FAMILY' || row.id === actor.uid ? await repo.wearerNames([...linked.keys()]) : [],
    };
  }

  /** A wearer may be put in a group of their organisation that the actor manages, or in none (org-wide staff). */
  async function requireGroupFor(
    actor: Actor,
    organizationId: string,
    groupId: string | null,
  ): Promise<void> {
    if (groupId === null) {
      if (!access.may(actor, 'wearer:manage', { organizationId, groupIds: [] })) {
        throw forbidden('Your role may not keep a wearer outside your groups');
      }
      return;
    }
    const at = await access.require(actor, 'wearer:manage', 'group', groupId);
    if (at.organizationId !== organizationId)
      throw fieldError('groupId', "must be a group of the wearer's organisation");
  }

  return {
    async get(actor: Actor, uid: string): Promise<Person> {
      const { row, kind } = await reachable(actor, uid);
      return view(actor, row, kind);
    },

    async createWearer(actor: Actor, body: CreateWearerRequest): Promise<Person> {
      await access.require(actor, 'wearer:manage', 'organization', body.clientId);
      const groupId = body.groupId ?? null;
      await requireGroupFor(actor, body.clientId, groupId);
      const uid = `wr-${randomUUID()}`;
      const after = {
        name: body.name.trim(),
        nameReading: body.nameReading ?? null,
        birthDate: body.birthDate,
        groupId,
      };
      await ctx.db.transaction(async (tx) => {
        await peopleRepository(tx).insertWearer({
          id: uid,
          organizationId: body.clientId,
          ...after,
        });
        await auditService(tx).record({
          organizationId: body.clientId,
          actorId: actor.uid,
          kind: 'wearer.create',
          targetId: uid,
          after,
        });
      });
      // The summary snapshots and live streams learn of the new wearer (the same event as a reading).
      notifyWearerUpdated(ctx, { organizationId: body.clientId, groupId, wearerId: uid });
      return this.get(actor, uid);
    },

    async update(actor: Actor, body: UpdateUserRequest): Promise<Person> {
      const uid = body.uid ?? actor.uid;
      const { row, kind } = await reachable(actor, uid);
      const onlyName =
        body.birthDate === undefined &&
        body.groupId === undefined &&
        body.nameReading === undefined;
      const self = uid === actor.uid;
      // The contract's self:update lets anyone rename themself; anything else is a wearer's profile, which needs
      // wearer:manage on that wearer (decision 0018: one path of the specification for both).
      if (!(self && onlyName)) {
        if (kind !== 'WEARER') {
          if (self)
            throw fieldError(
              body.birthDate !== undefined
                ? 'birthDate'
                : body.nameReading !== undefined
                  ? 'nameReading'
                  : 'groupId',
              'only a wearer has one',
            );
          throw forbidden("Only a wearer's profile or your own can be edited here");
        }
        await access.require(actor, 'wearer:manage', 'wearer', uid);
        if (body.groupId !== undefined)
          await requireGroupFor(actor, row.organization_id!, body.groupId);
      }
      const set = {
        name: body.name?.trim(),
        nameReading: body.nameReading,
        birthDate: body.birthDate,
        groupId: body.groupId,
      };
      const before: Record<string, unknown> = {};
      const after: Record<string, unknown> = {};
      const old = {
        name: row.name,
        nameReading: row.name_reading,
        birthDate: row.birth_date,
        groupId: row.group_id,
      };
      for (const k of ['name', 'nameReading', 'birthDate', 'groupId'] as const) {
        if (set[k] !== undefined) [before[k], after[k]] = [old[k], set[k]];
      }
      await ctx.db.transaction(async (tx) => {
        await peopleRepository(tx).update(uid, set);
        await auditService(tx).record({
          organizationId: row.organization_id,
          actorId: actor.uid,
          kind: kind === 'WEARER' ? 'wearer.update' : 'user.update',
          targetId: uid,
          before,
          after,
        });
      });
      if (kind === 'WEARER' && row.organization_id) {
        for (const groupIdNow of new Set([
          row.group_id,
          body.groupId === undefined ? row.group_id : body.groupId,
        ]))
          notifyWearerUpdated(ctx, {
            organizationId: row.organization_id,
            groupId: groupIdNow,
            wearerId: uid,
          });
      }
      return this.get(actor, uid);
    },

    async removeWearer(actor: Actor, uid: string): Promise<void> {
      const at = await access.require(actor, 'wearer:manage', 'wearer', uid);
      await ctx.db.transaction(async (tx) => {
        // Removals of one wearer at once take turns on its row; the later ones find it gone (404, not a 500).
        const people = peopleRepository(tx);
        const row = (await people.lockLiveUser(uid)) ? await people.find(uid) : undefined;
        if (!row) throw notFoundError('wearer', uid);
        await people.removeWearer(uid);
        await auditService(tx).record({
          organizationId: at.organizationId,
          actorId: actor.uid,
          kind: 'wearer.remove',
          targetId: uid,
          before: { name: row.name, birthDate: row.birth_date, groupId: row.group_id },
        });
      });
      notifyWearerUpdated(ctx, {
        organizationId: at.organizationId,
        groupId: at.groupIds?.[0] ?? null,
        wearerId: uid,
      });
    },

    async removePhone(actor: Actor, uid: string, clientId: string): Promise<void> {
      const { row, kind } = await reachable(actor, uid);
      const orgs =
        kind === 'FAMILY'
          ? new Set(
              [
                ...(
                  await access.permitted(actor, 'wearer:read', 'wearer', row.linked_wearer_ids)
                ).values(),
              ].map((l) => l.organizationId),
            )
          : new Set([row.organization_id]);
      if (!orgs.has(clientId) && uid !== actor.uid) throw userNotFound(uid);
      // The contract's self:update covers one's own number; someone else's needs what changing that person needs:
      // wearer:manage for a wearer, family:manage for a family member, member:changeRole for staff (decision 0018).
      if (uid !== actor.uid) {
        if (kind === 'WEARER') await access.require(actor, 'wearer:manage', 'wearer', uid);
        else if (kind === 'FAMILY') {
          const may = await access.permitted(
            actor,
            'family:manage',
            'wearer',
            row.linked_wearer_ids,
          );
          if (![...may.values()].some((l) => l.organizationId === clientId))
            throw forbidden('Your role may not do family:manage here');
        } else await access.require(actor, 'member:changeRole', 'organization', clientId);
      }
      await ctx.db.transaction(async (tx) => {
        await peopleRepository(tx).clearPhone(uid);
        await auditService(tx).record({
          organizationId:
            kind === 'FAMILY' || uid === actor.uid ? (row.organization_id ?? clientId) : clientId,
          actorId: actor.uid,
          kind: 'user.phoneRemove',
          targetId: uid,
          before: { phoneNumber: row.phone_number },
          after: { phoneNumber: null },
        });
      });
    },

    async familyOfVisibleWearers(
      actor: Actor,
      q: { clientId?: string | undefined; groupId?: string | undefined },
    ): Promise<FamilyMember[]> {
      if (q.clientId) await access.require(actor, 'member:read', 'organization', q.clientId);
      if (q.groupId) await access.require(actor, 'member:read', 'group', q.groupId);
      return repo.familyOfVisibleWearers(actor, { organizationId: q.clientId, groupId: q.groupId });
    },

    async setFamilyLink(actor: Actor, uid: string, wearerUid: string, linked: boolean) {
      const at = await access.require(actor, 'family:manage', 'wearer', wearerUid);
      const member = await repo.find(uid);
      if (!member) throw userNotFound(uid);
      if (member.kind !== 'FAMILY')
        throw fieldError('uid', 'must be a family member (a PERSONAL user)');
      await ctx.db.transaction(async (tx) => {
        const changed = linked
          ? await peopleRepository(tx).link(uid, wearerUid)
          : await peopleRepository(tx).unlink(uid, wearerUid);
        if (changed) {
          await auditService(tx).record({
            organizationId: at.organizationId,
            actorId: actor.uid,
            kind: linked ? 'family.link' : 'family.unlink',
            targetId: uid,
            before: { wearerUid, linked: !linked },
            after: { wearerUid, linked },
          });
        }
      });
      return { uid, wearerUid, linked };
    },
  };
}
