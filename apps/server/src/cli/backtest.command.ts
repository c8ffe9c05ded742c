import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { openDb } from '../db/client.js';
import { migrate } from '../db/migrate.js';
import {
  BacktestInputError,
  parseRules,
  runBacktest,
  type BacktestReport,
} from './backtest/backtest.js';
import type { AlertSettingsPatch } from '@wearable/domain';
import { CliError } from './cli-error.js';
import { refuseWhileServerRuns } from './embedded-owner.js';

const USAGE = 'Usage: backtest --from ISO --to ISO --organization ID [--rules file.json] [--json]';

/**
 * `backtest`: replays the stored readings of a period through a proposed rule set with the
 * pure engine and prints which alerts would have fired, next to the alerts actually stored.
 * Writes nothing (docs/alert-engine.md, "Backtest").
 */
export async function backtestCommand(args: string[]): Promise<void> {
  let values: { from?: string; to?: string; organization?: string; rules?: string; json?: boolean };
  try {
    ({ values } = parseArgs({
      args,
      options: {
        from: { type: 'string' },
        to: { type: 'string' },
        organization: { type: 'string' },
        rules: { type: 'string' },
        json: { type: 'boolean' },
      },
    }));
  } catch (err) {
    throw new CliError(`${(err as Error).message}. ${USAGE}`);
  }
  for (const name of ['from', 'to', 'organization'] as const) {
    if (!values[name]) throw new CliError(`--${name} is required. ${USAGE}`);
  }
  const rules = values.rules ? await readRules(values.rules) : null;
  const config = loadConfig();
  await refuseWhileServerRuns(config, 'a backtest');
  const db = await openDb(config);
  try {
    await migrate(db);
    const report = await runBacktest(db, {
      organizationId: values.organization!,
      from: new Date(values.from!),
      to: new Date(values.to!),
      rules,
    });
    console.log(values.json ? JSON.stringify(report, null, 2) : formatReport(report, values.rules));
  } catch (err) {
    if (err instanceof BacktestInputError) throw new CliError(err.message);
    throw err;
  } finally {
    await db.close();
  }
}

async function readRules(path: string): Promise<AlertSettingsPatch> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new CliError(`--rules ${path} cannot be read: ${(err as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new CliError(`--rules ${path} is not JSON: ${(err as Error).message}`);
  }
  try {
    return parseRules(json);
  } catch (err) {
    if (err instanceof BacktestInputError) throw new CliError(`--rules ${path}: ${err.message}`);
    throw err;
  }
}

/** A plain-text table: per type and wearer, would fire (count, first) vs stored (count, first). */
export function formatReport(report: BacktestReport, rulesPath?: string): string {
  const lines = [
    `Backtest ${report.from} .. ${report.to}, organisation ${report.organizationId}, rules ${rulesPath ?? '(as stored)'}`,
    `${report.wearers} wearers, ${report.readings} readings (replay warmed up over the ${report.warmupMinutes} minutes before)`,
    '',
  ];
  const header = ['type', 'wearer', 'would fire', 'first', 'stored', 'first'];
  const body = report.rows.map((r) => [
    r.type,
    r.wearerName,
    String(r.proposed.count),
    r.proposed.firstAt ?? '-',
    String(r.stored.count),
    r.stored.firstAt ?? '-',
  ]);
  if (body.length === 0) lines.push('No alert would have fired and none is stored.');
  else lines.push(...table([header, ...body]));
  if (report.totals.length > 0) {
    lines.push('', 'Totals per type:');
    lines.push(
      ...table([
        ['type', 'would fire', 'stored'],
        ...report.totals.map((t) => [t.type, String(t.proposed), String(t.stored)]),
      ]),
    );
  }
  return lines.join('\n');
}

// Wide (CJK, full-width) characters take two terminal columns; wearer names are often Japanese.
const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60]/;
const displayWidth = (s: string): number =>
  [...s].reduce((n, ch) => n + (WIDE.test(ch) ? 2 : 1), 0);

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => displayWidth(r[c]!))));
  return rows.map((r) =>
    r
      .map((cell, c) => cell + ' '.repeat(widths[c]! - displayWidth(cell)))
      .join('  ')
      .trimEnd(),
  );
}
