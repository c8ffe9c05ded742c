import type { Actor, FhirExportQuery } from '@wearable/domain';
import { accessService } from '../../access/access.service.js';
import type { AppContext } from '../../context.js';
import { notFound } from '../../errors.js';
import {
  braceletAt,
  dailyStepsEntry,
  deviceEntry,
  type Entry,
  observationEntries,
  patientEntry,
} from './fhir-bundle.js';
import { fhirRepository } from './fhir.repository.js';

/** Rollup rows read per query while streaming (a month of minutes is about 45 pages). */
const PAGE = 1000;

export function fhirService(ctx: AppContext) {
  return {
    /**
     * A wearer's data for a period as a FHIR R4 Bundle (type `collection`), streamed as JSON text:
     * the checks (who may, which wearer) run before the first byte; then Patient, Devices, daily steps
     * and the Observations of each rollup bucket, read a page at a time, so a month of per-minute data
     * is never built whole in memory.
     */
    async fhirExport(actor: Actor, query: FhirExportQuery): Promise<AsyncIterable<string>> {
      await accessService(ctx.db).require(actor, 'wearer:exportFhir', 'wearer', query.uid);
      const repo = fhirRepository(ctx.db);
      const wearer = await repo.wearer(query.uid);
      if (!wearer) throw notFound(`No wearer ${query.uid}`);
      const from = new Date(query.from);
      const to = new Date(query.to);
      const publicUrl = ctx.config.publicUrl;
      const bracelets = await repo.bracelets(wearer.uid, from, to);
      const days = await repo.dailySteps(wearer.uid, from, to, wearer.timeZone);
      const now = ctx.now().toISOString();

      async function* bundle(): AsyncIterable<string> {
        const patient = patientEntry(wearer!, publicUrl);
        const devices = new Map(bracelets.map((b) => [b.id, deviceEntry(b, patient, publicUrl)]));
        let first = true;
        const emit = (e: Entry) => {
          const text = (first ? '' : ',') + JSON.stringify(e);
          first = false;
          return text;
        };
        yield `{"resourceType":"Bundle","type":"collection","timestamp":${JSON.stringify(now)},"entry":[`;
        yield emit(patient);
        for (const d of devices.values()) yield emit(d);
        for (const day of days) yield emit(dailyStepsEntry(day, patient));
        let after = from;
        let inclusive = true;
        for (;;) {
          const rows = await repo.rollups(
            query.resolution,
            wearer!.uid,
            after,
            to,
            PAGE,
            inclusive,
          );
          let chunk = '';
          for (const row of rows) {
            const bracelet = braceletAt(bracelets, row.bucket.getTime());
            const device = bracelet ? (devices.get(bracelet.id) ?? null) : null;
            for (const e of observationEntries(row, query.resolution, patient, device))
              chunk += emit(e);
          }
          if (chunk) yield chunk;
          const last = rows.at(-1);
          if (rows.length < PAGE || !last) break;
          after = last.bucket;
          inclusive = false;
        }
        yield ']}';
      }
      return bundle();
    },
  };
}
