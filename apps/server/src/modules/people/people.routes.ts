import type { FastifyPluginAsync } from 'fastify';
import {
  createWearer,
  getPerson,
  importWearers,
  linkFamilyMember,
  listFamilyOfWearers,
  removePhoneNumber,
  removeWearer,
  unlinkFamilyMember,
  updatePerson,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/serve.js';
import { peopleService } from './people.service.js';
import { wearerImportService } from './wearer-import.service.js';

/** Wearers, family members and profiles: the people calls of the specification (issue 6 item 5). */
export const peopleRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const people = peopleService(ctx);
  serve(app, createWearer, (req) => people.createWearer(req.actor, req.body));
  const imports = wearerImportService(ctx);
  serve(app, importWearers, (req) => imports.import(req.actor, req.params.clientId, req.body));
  serve(app, removeWearer, async (req) => {
    await people.removeWearer(req.actor, req.params.uid);
    return { ok: true as const };
  });
  serve(app, listFamilyOfWearers, async (req) => ({
    users: await people.familyOfVisibleWearers(req.actor, req.query),
  }));
  serve(app, getPerson, (req) => people.get(req.actor, req.params.uid), {
    reads: { what: 'records', people: (req) => [req.params.uid] },
  });
  serve(app, updatePerson, (req) => people.update(req.actor, req.body));
  serve(app, removePhoneNumber, async (req) => {
    await people.removePhone(req.actor, req.params.uid, req.body.clientId);
    return { ok: true as const };
  });
  serve(app, linkFamilyMember, (req) =>
    people.setFamilyLink(req.actor, req.body.uid, req.body.wearerUid, true),
  );
  serve(app, unlinkFamilyMember, (req) =>
    people.setFamilyLink(req.actor, req.body.uid, req.body.wearerUid, false),
  );
};
