import type { FastifyPluginAsync } from 'fastify';
import {
  type AccessLogEntry,
  type Actor,
  listAccessLog,
  listAccessLogCsv,
  PLATFORM,
} from '@wearable/domain';
import { accessService } from '../../access/access.service.js';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/serve.js';
import { noteRead } from '../../plugins/access-log.js';
import { accessLogRepository } from './access-log.repository.js';

const CSV_ROWS = 10_000;
const BOM = '\uFEFF';

/** A CSV cell (RFC 4180; text a spreadsheet would run gets a leading apostrophe). */
function cell(value: string | number | null): string {
  if (value === null) return '';
  let s = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

function csv(entries: AccessLogEntry[]): string {
  const header = [
    'at',
    'organization',
    'seq',
    'actor_id',
    'actor_name',
    'api_token_id',
    'what',
    'people',
    'ip',
  ];
  const lines = [header.join(',')];
  for (const e of entries) {
    const people = e.people
      .map((p) => (p.name === null ? p.uid : `${p.name} (${p.uid})`))
      .join('; ');
    lines.push(
      [e.at, e.clientId, e.seq, e.actorId, e.actorName, e.apiTokenId, e.what, people, e.ip]
        .map(cell)
        .join(','),
    );
  }
  return `${BOM}${lines.join('\r\n')}\r\n`;
}

/**
 * The access log's review (issue 39 item 3, docs/access-log.md): owners read their organisation's, platform owners
 * one organisation's or every one's. Reading it is itself a read of the people it names, and is recorded.
 */
export const accessLogRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const access = accessService(ctx.db);
  const repo = accessLogRepository(ctx.db);

  async function organizationOf(actor: Actor, clientId: string | undefined) {
    if (clientId !== undefined) {
      await access.require(actor, 'accessLog:read', 'organization', clientId);
      return clientId;
    }
    if (access.may(actor, 'accessLog:read', PLATFORM)) return undefined;
    // An owner without clientId reads their own organisation's log.
    await access.require(actor, 'accessLog:read', 'organization', actor.organizationId ?? '-');
    return actor.organizationId ?? undefined;
  }

  serve(
    app,
    listAccessLog,
    async (req) => {
      const q = req.query;
      const { entries, total } = await repo.review({
        organizationId: await organizationOf(req.actor, q.clientId),
        personId: q.personId,
        actorId: q.actorId,
        from: q.from,
        to: q.to,
        limit: q.pageSize,
        offset: (q.page - 1) * q.pageSize,
      });
      return { entries, total, page: q.page };
    },
    {
      reads: {
        what: 'access-log',
        peopleInAnswer: (page) => page.entries.flatMap((e) => e.people.map((p) => p.uid)),
      },
    },
  );

  serve(
    app,
    listAccessLogCsv,
    async (req, reply) => {
      const q = req.query;
      const { entries } = await repo.review({
        organizationId: await organizationOf(req.actor, q.clientId),
        personId: q.personId,
        actorId: q.actorId,
        from: q.from,
        to: q.to,
        limit: CSV_ROWS,
        offset: 0,
      });
      noteRead(
        req,
        entries.flatMap((e) => e.people.map((p) => p.uid)),
      );
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="access-log.csv"')
        .send(csv(entries));
    },
    { reads: { what: 'access-log' } },
  );
};
