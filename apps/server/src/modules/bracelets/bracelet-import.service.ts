import { randomUUID } from 'node:crypto';
import {
  type Actor,
  type BraceletImportBody,
  IMPORT_PROBLEMS,
  type ImportAction,
  importIssuePath,
  type ImportProblem,
  type ImportResult,
  normalizeSerial,
  serialNumber as serialRule,
} from '@wearable/domain';
import { accessService } from '../../access/access.service.js';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/client.js';
import { ApiError, conflict } from '../../errors.js';
import { wearerDirectory } from '../people/people.service.js';
import { braceletsService } from './bracelets.service.js';
import { type BraceletRecord, braceletsRepository } from './bracelets.repository.js';

/** One problem of one cell: the row (1 = first under the header), the column and what is wrong. */
export interface RowIssue {
  row: number;
  column: string;
  problem: ImportProblem;
}

/** The 400 of a refused file: every bad cell, none written (the transaction is rolled back). */
export function rowsRefused(issues: RowIssue[]): ApiError {
  const sorted = [...issues].sort((a, b) => a.row - b.row || a.column.localeCompare(b.column));
  const listed = sorted
    .slice(0, 20)
    .map((i) => `row ${i.row} ${i.column}: ${IMPORT_PROBLEMS[i.problem]}`)
    .join('; ');
  return new ApiError(
    400,
    'IMPORT_ROWS_INVALID',
    `${sorted.length} problem(s), nothing imported: ${listed}${sorted.length > 20 ? '; …' : ''}`,
    sorted.map((i) => ({
      path: importIssuePath(i.row, i.column),
      message: IMPORT_PROBLEMS[i.problem],
    })),
  );
}

/** A thrown refusal that carries the plan's issues out of the transaction (rolled back). */
class Refused extends Error {
  constructor(readonly issues: RowIssue[]) {
    super('refused');
  }
}
/** Thrown to roll a dry run back once its answer is known. */
class DryRun extends Error {}

export const text = (s: string | undefined) => (s ?? '').trim();

/** A required short text: the problem, if any. */
export function checkText(value: string, max: number): ImportProblem | null {
  if (value === '') return 'required';
  if (value.length > max) return 'tooLong';
  if (/\p{Cs}/u.test(value)) return 'invalidText';
  return null;
}

export function summarize(dryRun: boolean, actions: ImportAction[]): ImportResult {
  const count = (a: ImportAction) => actions.filter((x) => x === a).length;
  return {
    dryRun,
    rows: actions.map((action, i) => ({ row: i + 1, action })),
    created: count('create'),
    updated: count('update'),
    unchanged: count('unchanged'),
  };
}

/** Runs `write` in a transaction; a dry run or a refused plan rolls it back. */
export async function allOrNothing<T>(
  ctx: AppContext,
  dryRun: boolean,
  plan: (tx: Queryable) => Promise<{ issues: RowIssue[]; result: T; write: () => Promise<void> }>,
): Promise<T> {
  let answer: T | undefined;
  try {
    await ctx.db.transaction(async (tx) => {
      const { issues, result, write } = await plan(tx);
      if (issues.length) throw new Refused(issues);
      answer = result;
      if (dryRun) throw new DryRun('dry run');
      await write();
    });
  } catch (error) {
    if (error instanceof Refused) throw rowsRefused(error.issues);
    if (!(error instanceof DryRun)) throw error;
  }
  return answer as T;
}

/**
 * POST /v2/client/{clientId}/bracelets/import: bracelets by serial number and model, each
 * optionally worn by a wearer named in the file. All rows or none; re-importing the same file
 * finds every row `unchanged` and writes nothing.
 */
export function braceletImportService(ctx: AppContext) {
  const access = accessService(ctx.db);
  const bracelets = braceletsService(ctx);

  return {
    async import(actor: Actor, clientId: string, body: BraceletImportBody): Promise<ImportResult> {
      await access.require(actor, 'bracelet:register', 'organization', clientId);
      const dryRun = body.dryRun ?? false;
      const issues: RowIssue[] = [];
      const rows = body.rows.map((r, i) => {
        const row = i + 1;
        const serial = text(r.serialNumber);
        const model = text(r.model);
        const wearer = text(r.wearer);
        const serialProblem =
          checkText(serial, 64) ?? (serialRule.safeParse(serial).success ? null : 'serialFormat');
        if (serialProblem) issues.push({ row, column: 'serialNumber', problem: serialProblem });
        const modelProblem = checkText(model, 64);
        if (modelProblem) issues.push({ row, column: 'model', problem: modelProblem });
        if (wearer !== '' && checkText(wearer, 100))
          issues.push({ row, column: 'wearer', problem: checkText(wearer, 100)! });
        return { row, serial: serialProblem ? '' : normalizeSerial(serial), model, wearer };
      });
      const seenSerials = new Set<string>();
      const seenWearers = new Set<string>();
      for (const r of rows) {
        if (r.serial !== '') {
          if (seenSerials.has(r.serial))
            issues.push({ row: r.row, column: 'serialNumber', problem: 'duplicateInFile' });
          seenSerials.add(r.serial);
        }
        if (r.wearer !== '') {
          if (seenWearers.has(r.wearer))
            issues.push({ row: r.row, column: 'wearer', problem: 'duplicateInFile' });
          seenWearers.add(r.wearer);
        }
      }
      // Wearers by name, among those the actor may pair a bracelet to (others do not exist for them).
      const named = await wearerDirectory(ctx.db).byName(clientId, [...seenWearers]);
      const pairable = await access.permitted(
        actor,
        'bracelet:pair',
        'wearer',
        [...named.values()].flat(),
      );
      const wearerOf = new Map<string, string>();
      for (const r of rows) {
        if (r.wearer === '') continue;
        const ids = (named.get(r.wearer) ?? []).filter((id) => pairable.has(id));
        if (ids.length === 0)
          issues.push({ row: r.row, column: 'wearer', problem: 'wearerUnknown' });
        else if (ids.length > 1)
          issues.push({ row: r.row, column: 'wearer', problem: 'wearerAmbiguous' });
        else wearerOf.set(r.wearer, ids[0]!);
      }

      const touched: { serial: string; wearers: string[] }[] = [];
      const result = await allOrNothing(ctx, dryRun, async (tx) => {
        const repo = braceletsRepository(tx);
        const existing = new Map<string, BraceletRecord>(
          (await repo.lockBySerials([...seenSerials])).map((b) => [b.serialNumber, b]),
        );
        const wearing = new Map<string, BraceletRecord>();
        for (const id of new Set(wearerOf.values())) {
          const worn = await repo.findByWearer(id);
          if (worn) wearing.set(id, worn);
        }
        const actions: ImportAction[] = [];
        const writes: (() => Promise<void>)[] = [];
        const now = ctx.now();
        for (const r of rows) {
          const known = existing.get(r.serial);
          const wearerId = r.wearer === '' ? null : (wearerOf.get(r.wearer) ?? null);
          if (known && known.organizationId !== clientId) {
            issues.push({ row: r.row, column: 'serialNumber', problem: 'serialTaken' });
            actions.push('unchanged');
            continue;
          }
          if (wearerId !== null) {
            const worn = wearing.get(wearerId);
            if (worn && worn.serialNumber !== r.serial)
              issues.push({ row: r.row, column: 'wearer', problem: 'wearerHasBracelet' });
            if (known && known.wearerId !== null && known.wearerId !== wearerId)
              issues.push({ row: r.row, column: 'wearer', problem: 'braceletWorn' });
          }
          const assign = wearerId !== null && known?.wearerId !== wearerId;
          if (!known) {
            actions.push('create');
            writes.push(async () => {
              const id = `brc-${randomUUID()}`;
              const inserted = await repo.insert(
                {
                  id,
                  organizationId: clientId,
                  serialNumber: r.serial,
                  deviceName: r.serial,
                  model: r.model,
                  firmware: null,
                },
                now,
              );
              // Registered by someone else since the rows were locked (a concurrent import): all or none.
              if (!inserted)
                throw conflict(
                  `serialNumber: bracelet ${r.serial} was registered meanwhile; import the file again`,
                  'BRACELET_SERIAL_TAKEN',
                );
              if (wearerId !== null) await repo.startAssignment(id, wearerId, now);
            });
            touched.push({ serial: r.serial, wearers: wearerId ? [wearerId] : [] });
            continue;
          }
          const remodel = known.model !== r.model;
          if (!remodel && !assign) {
            actions.push('unchanged');
            continue;
          }
          actions.push('update');
          writes.push(async () => {
            if (remodel) await repo.setModel(known.id, r.model);
            if (assign) await repo.startAssignment(known.id, wearerId, now);
          });
          touched.push({ serial: r.serial, wearers: assign ? [wearerId] : [] });
        }
        return {
          issues,
          result: summarize(dryRun, actions),
          write: async () => {
            for (const w of writes) await w();
          },
        };
      });
      if (!dryRun)
        for (const t of touched)
          bracelets.announce({ organizationId: clientId, serialNumber: t.serial }, t.wearers);
      return result;
    },
  };
}
