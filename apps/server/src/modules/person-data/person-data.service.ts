import type { Actor } from '@wearable/domain';
import { Zip, ZipDeflate } from 'fflate';
import { accessService, notFoundError } from '../../access/access.service.js';
import { notifyWearerUpdated } from '../../bus/wearer-updates.js';
import type { AppContext } from '../../context.js';
import { ApiError } from '../../errors.js';
import { auditService } from '../audit/audit.service.js';
import {
  PAGE,
  PAGED_SOURCES,
  type PersonRow,
  personDataRepository,
  type Row,
  SECRET_COLUMN,
} from './person-data.repository.js';

const README = `Everything this console holds about one person / この人について保存しているすべてのデータ

profile.json            the person, their organisation and group, alert settings, the alert engine's state,
                        terms agreements / 本人・組織・グループ・アラート設定・判定の状態・規約の同意
devices.csv             bracelets they wear / 装着しているブレスレット
device-assignments.csv  which bracelet they wore when / どのブレスレットをいつ装着していたか
readings.csv            every reading as received (UTC) / 受信したすべての計測値（UTC）
reading-minutes.csv     per-minute summaries / 1分ごとの集計
reading-hours.csv       per-hour summaries / 1時間ごとの集計
latest.csv              the latest values / 最新の値
positions.csv           positions a phone gateway sent / スマートフォンが送った位置
places.csv              where they were last heard / 最後に受信した場所
device-events.csv       SOS, falls, worn and removed / SOS・転倒・装着・取り外し
alerts.csv              alerts about them, with who confirmed them and why / アラートと確認の記録
notifications.csv       what was sent about them (SMS, calls, mail), without the recipients / 送信した通知（宛先は除く）
snoozes.csv             alerts paused for them / 一時停止したアラート
night-round-marks.csv   night round checks / 夜間巡視の確認記録
family-links.csv        family members linked to them / 連携している家族
audit.csv               changes made to their record / 登録内容の変更履歴
access-log.csv          who read their data, when and from where / 記録を閲覧した人・日時・接続元

Times are UTC (ISO 8601). Secrets (password and token hashes) are never included.
時刻はUTC（ISO 8601）です。パスワードやトークンのハッシュは含みません。
`;

/** A value as a CSV cell: dates in ISO 8601, objects as JSON; text that a spreadsheet would run is quoted. */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let s: string;
  if (value instanceof Date) s = value.toISOString();
  else if (typeof value === 'object') s = JSON.stringify(value);
  else if (typeof value === 'string') s = value;
  else if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    s = value.toString();
  else return '';
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

const exported = (row: Row): Row =>
  Object.fromEntries(
    Object.entries(row).filter(([k, v]) => !SECRET_COLUMN.test(k) && !(v instanceof Uint8Array)),
  );

const text = (s: string) => new TextEncoder().encode(s);

/** A filename-safe date: 2026-12-02. */
const day = (d: Date) => d.toISOString().slice(0, 10);

export function personDataService(ctx: AppContext) {
  const access = accessService(ctx.db);

  /**
   * The wearer `uid` if the actor may do `permission` on them, in the list or removed from it (an erasure is often
   * asked for after the person left). Whoever cannot reach them gets the same 404 as for no such person.
   */
  async function reach(
    actor: Actor,
    permission: 'person:export' | 'person:erase',
    uid: string,
  ): Promise<PersonRow> {
    const row = await personDataRepository(ctx.db).wearer(uid);
    if (!row) throw notFoundError('wearer', uid);
    // The contract's permission is held by a PERSONAL_SELF user for their own file; anyone else's needs more
    // (their scope also reaches the wearers linked to them, whose file is not theirs to take).
    const needed =
      permission === 'person:export' && uid !== actor.uid ? 'person:exportOthers' : permission;
    try {
      if (row.deleted_at === null) await access.require(actor, needed, 'wearer', uid);
      else await access.require(actor, needed, 'organization', row.organization_id);
    } catch (err) {
      // The organisation's id is not the caller's to learn from a person's id.
      if (err instanceof ApiError && err.statusCode === 404) throw notFoundError('wearer', uid);
      throw err;
    }
    return row;
  }

  return {
    /**
     * Everything held about one wearer as a ZIP, streamed: the checks run before the first byte, then each table
     * is read a page at a time (a year of readings is never in memory whole) and deflated as it goes.
     */
    async export(
      actor: Actor,
      uid: string,
    ): Promise<{ filename: string; chunks: AsyncIterable<Uint8Array> }> {
      await reach(actor, 'person:export', uid);
      const repo = personDataRepository(ctx.db);
      const filename = `person-${uid}-${day(ctx.now())}.zip`;

      async function* archive(): AsyncIterable<Uint8Array> {
        const out: Uint8Array[] = [];
        let failure: Error | null = null;
        const zip = new Zip((err, data) => {
          if (err) failure = err;
          else out.push(data);
        });
        const drain = function* () {
          if (failure) throw failure;
          yield* out.splice(0);
        };
        const file = (name: string) => {
          const f = new ZipDeflate(name, { level: 6 });
          zip.add(f);
          return f;
        };
        file('README.txt').push(text(README), true);
        yield* drain();
        file('profile.json').push(
          text(`${JSON.stringify(exported(await repo.profile(uid)), null, 2)}\n`),
          true,
        );
        yield* drain();
        for (const source of PAGED_SOURCES) {
          const f = file(source.file);
          let columns: string[] | null = null;
          let after: Row | null = null;
          for (;;) {
            const rows = await repo.page(source, uid, after);
            const lines: string[] = [];
            for (const raw of rows) {
              const row = exported(raw);
              if (columns === null) {
                columns = Object.keys(row);
                lines.push(columns.join(','));
              }
              lines.push(columns.map((c) => cell(row[c])).join(','));
            }
            if (lines.length > 0) f.push(text(`${lines.join('\r\n')}\r\n`));
            yield* drain();
            if (rows.length < PAGE) break;
            after = rows.at(-1)!;
          }
          f.push(new Uint8Array(0), true);
          yield* drain();
        }
        zip.end();
        yield* drain();
      }
      return { filename, chunks: archive() };
    },

    /**
     * Erases a wearer and their data (APPI deletion; docs/privacy.md): in one transaction, after which nothing of
     * them is left but the audit log's entries that things happened (without their data) and this erasure's own.
     */
    async erase(actor: Actor, uid: string): Promise<void> {
      const person = await reach(actor, 'person:erase', uid);
      await ctx.db.transaction(async (tx) => {
        const repo = personDataRepository(tx);
        // Two erasures at once take turns on the row; the later one finds it gone (404).
        const row = await repo.wearer(uid, true);
        if (!row) throw notFoundError('wearer', uid);
        const removed = await repo.erase(uid, row.name);
        await auditService(tx).record({
          organizationId: row.organization_id,
          actorId: actor.uid,
          kind: 'person.erase',
          targetId: uid,
          after: removed,
        });
      });
      notifyWearerUpdated(ctx, {
        organizationId: person.organization_id,
        groupId: null,
        wearerId: uid,
      });
    },
  };
}
