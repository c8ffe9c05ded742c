import { randomUUID } from 'node:crypto';
import {
  type Actor,
  type ImportAction,
  type ImportResult,
  normalizeSerial,
  type WearerImportBody,
} from '@wearable/domain';
import { accessService } from '../../access/access.service.js';
import type { AppContext } from '../../context.js';
import { notifyWearerUpdated } from '../../bus/wearer-updates.js';
import { auditService } from '../audit/audit.service.js';
import {
  allOrNothing,
  checkText,
  type RowIssue,
  summarize,
  text,
} from '../bracelets/bracelet-import.service.js';
import { braceletsInTransaction, braceletsService } from '../bracelets/bracelets.service.js';
import { peopleRepository } from './people.repository.js';

/**
 * A birth year (YYYY: stored as 1 January, enough for the heart-rate maximum of 220 - age) or a
 * full date (YYYY-MM-DD), between 1900 and this year; null if neither.
 */
export function birthDateOf(cell: string, thisYear: number): string | null {
  const year = /^(\d{4})$/.exec(cell);
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(cell);
  const y = Number((year ?? date)?.[1] ?? NaN);
  if (!(y >= 1900 && y <= thisYear)) return null;
  if (year) return `${cell}-01-01`;
  const d = new Date(`${cell}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === cell ? cell : null;
}

/**
 * POST /v2/client/{clientId}/wearers/import: wearers by name, reading, group (by its name), birth
 * year and optionally the serial number of a registered bracelet they wear. A wearer of the same
 * name and birth date is the same person (a re-import updates or leaves them, never adds a twin).
 * All rows or none.
 */
export function wearerImportService(ctx: AppContext) {
  const access = accessService(ctx.db);
  const bracelets = braceletsService(ctx);

  return {
    async import(actor: Actor, clientId: string, body: WearerImportBody): Promise<ImportResult> {
      await access.require(actor, 'wearer:manage', 'organization', clientId);
      const dryRun = body.dryRun ?? false;
      const thisYear = ctx.now().getUTCFullYear();
      const people = peopleRepository(ctx.db);
      const groups = await people.groupsOf(clientId);
      const manageable = await access.permitted(
        actor,
        'wearer:manage',
        'group',
        groups.map((g) => g.id),
      );
      const mayNoGroup = access.may(actor, 'wearer:manage', {
        organizationId: clientId,
        groupIds: [],
      });
      const issues: RowIssue[] = [];
      const rows = body.rows.map((r, i) => {
        const row = i + 1;
        const name = text(r.name);
        const reading = text(r.nameReading);
        const groupName = text(r.group);
        const birthCell = text(r.birthYear);
        const serialCell = text(r.serialNumber);
        const nameProblem = checkText(name, 100);
        if (nameProblem) issues.push({ row, column: 'name', problem: nameProblem });
        if (reading !== '' && checkText(reading, 100))
          issues.push({ row, column: 'nameReading', problem: checkText(reading, 100)! });
        let groupId: string | null = null;
        if (groupName !== '') {
          const matches = groups.filter((g) => g.name === groupName);
          if (matches.length !== 1) issues.push({ row, column: 'group', problem: 'groupUnknown' });
          else if (!manageable.has(matches[0]!.id))
            issues.push({ row, column: 'group', problem: 'groupNotYours' });
          else groupId = matches[0]!.id;
        } else if (!mayNoGroup) issues.push({ row, column: 'group', problem: 'required' });
        const birthDate = birthCell === '' ? null : birthDateOf(birthCell, thisYear);
        if (birthDate === null)
          issues.push({
            row,
            column: 'birthYear',
            problem: birthCell === '' ? 'required' : 'birthYear',
          });
        const serial = serialCell === '' ? null : normalizeSerial(serialCell);
        if (
          serial !== null &&
          !access.may(actor, 'bracelet:pair', {
            organizationId: clientId,
            groupIds: groupId ? [groupId] : [],
          })
        )
          issues.push({ row, column: 'serialNumber', problem: 'pairNotAllowed' });
        return { row, name, reading: reading === '' ? null : reading, groupId, birthDate, serial };
      });
      const seenPeople = new Set<string>();
      const seenSerials = new Set<string>();
      for (const r of rows) {
        const key = `${r.name}\u0000${r.birthDate ?? ''}`;
        if (r.name !== '' && seenPeople.has(key))
          issues.push({ row: r.row, column: 'name', problem: 'duplicateInFile' });
        seenPeople.add(key);
        if (r.serial !== null) {
          if (seenSerials.has(r.serial))
            issues.push({ row: r.row, column: 'serialNumber', problem: 'duplicateInFile' });
          seenSerials.add(r.serial);
        }
      }

      const notices: { uid: string; groupIds: (string | null)[] }[] = [];
      const announced: { serial: string; wearerId: string }[] = [];
      const result = await allOrNothing(ctx, dryRun, async (tx) => {
        const txPeople = peopleRepository(tx);
        const txBracelets = braceletsInTransaction(tx);
        const known = await txPeople.wearersNamed(
          clientId,
          rows.map((r) => r.name).filter((n) => n !== ''),
        );
        const bySerial = new Map(
          (await txBracelets.lockBySerials([...seenSerials])).map((b) => [b.serialNumber, b]),
        );
        const actions: ImportAction[] = [];
        const writes: (() => Promise<void>)[] = [];
        const now = ctx.now();
        const audit = auditService(tx);
        for (const r of rows) {
          const twins = known.filter((k) => k.name === r.name && k.birth_date === r.birthDate);
          if (twins.length > 1) {
            issues.push({ row: r.row, column: 'name', problem: 'wearerAmbiguous' });
            actions.push('unchanged');
            continue;
          }
          const twin = twins[0];
          const bracelet = r.serial === null ? undefined : bySerial.get(r.serial);
          if (r.serial !== null && (!bracelet || bracelet.organizationId !== clientId))
            issues.push({ row: r.row, column: 'serialNumber', problem: 'braceletUnknown' });
          else if (bracelet && bracelet.wearerId !== null && bracelet.wearerId !== twin?.id)
            issues.push({ row: r.row, column: 'serialNumber', problem: 'braceletWorn' });
          if (twin && bracelet) {
            const worn = await txBracelets.findByWearer(twin.id);
            if (worn && worn.id !== bracelet.id)
              issues.push({ row: r.row, column: 'serialNumber', problem: 'wearerHasBracelet' });
          }
          const assign = bracelet !== undefined && bracelet.wearerId !== (twin?.id ?? null);
          if (!twin) {
            actions.push('create');
            const uid = `wr-${randomUUID()}`;
            const after = {
              name: r.name,
              nameReading: r.reading,
              birthDate: r.birthDate!,
              groupId: r.groupId,
            };
            writes.push(async () => {
              await txPeople.insertWearer({ id: uid, organizationId: clientId, ...after });
              await audit.record({
                organizationId: clientId,
                actorId: actor.uid,
                kind: 'wearer.create',
                targetId: uid,
                after,
              });
              if (bracelet) await txBracelets.startAssignment(bracelet.id, uid, now);
            });
            notices.push({ uid, groupIds: [r.groupId] });
            if (bracelet) announced.push({ serial: bracelet.serialNumber, wearerId: uid });
            continue;
          }
          // A column left empty keeps what the wearer has (a re-import of a shorter file is a no-op).
          const regroup = r.groupId !== null && twin.group_id !== r.groupId;
          const reread = r.reading !== null && twin.name_reading !== r.reading;
          if (!regroup && !reread && !assign) {
            actions.push('unchanged');
            continue;
          }
          actions.push('update');
          writes.push(async () => {
            const set = {
              ...(regroup ? { groupId: r.groupId } : {}),
              ...(reread ? { nameReading: r.reading } : {}),
            };
            if (regroup || reread) {
              await txPeople.update(twin.id, set);
              await audit.record({
                organizationId: clientId,
                actorId: actor.uid,
                kind: 'wearer.update',
                targetId: twin.id,
                before: {
                  ...(regroup ? { groupId: twin.group_id } : {}),
                  ...(reread ? { nameReading: twin.name_reading } : {}),
                },
                after: set,
              });
            }
            if (assign) await txBracelets.startAssignment(bracelet.id, twin.id, now);
          });
          notices.push({ uid: twin.id, groupIds: [twin.group_id, r.groupId ?? twin.group_id] });
          if (assign) announced.push({ serial: bracelet.serialNumber, wearerId: twin.id });
        }
        return {
          issues,
          result: summarize(dryRun, actions),
          write: async () => {
            for (const w of writes) await w();
          },
        };
      });
      if (!dryRun) {
        for (const n of notices)
          for (const groupId of new Set(n.groupIds))
            notifyWearerUpdated(ctx, { organizationId: clientId, groupId, wearerId: n.uid });
        for (const a of announced)
          bracelets.announce({ organizationId: clientId, serialNumber: a.serial }, [a.wearerId]);
      }
      return result;
    },
  };
}
