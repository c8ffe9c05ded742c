import { createHash, randomBytes } from 'node:crypto';
import {
  type Actor,
  ENROLMENT_ERRORS,
  type EnrolPhoneResponse,
  PHONE_ENROL_FRAGMENT,
  PHONE_ENROLMENT_TTL_MS,
  type PhoneEnrolmentResponse,
} from '@wearable/domain';
import { accessService, notFoundError } from '../../access/access.service.js';
import type { AppContext } from '../../context.js';
import { BUS_EVENTS, type GatewayCredentialChangedEvent } from '../../bus/events.js';
import { ApiError } from '../../errors.js';
import { auditService } from '../audit/audit.service.js';
import { alertPolicyService } from '../alert-policy/alert-policy.service.js';
import { attemptLimitsService, clientKey } from '../auth/attempt-limits.service.js';
import { braceletsService } from '../bracelets/bracelets.service.js';
import { gatewaysRepository } from './gateways.repository.js';
import { newCredential } from './gateways.service.js';
import { phoneEnrolmentRepository } from './phone-enrolment.repository.js';
import { linksReachOnlyThisMachine } from '../../public-address.js';

/**
 * Enrolment tries (wrong, used or expired codes) per client address in SIGN_IN_WINDOW; a code that
 * works is given back. A code has 192 random bits, so this only keeps a guesser from costing the
 * database more than a trickle of look-ups.
 */
export const ENROL_TRIES_PER_CLIENT = 10;

const hashOf = (code: string) => createHash('sha256').update(code).digest('hex');

const refused = (status: 400 | 410, code: string, message: string) =>
  new ApiError(status, code, `code: ${message}`, [{ path: 'body.code', message }]);

/**
 * A phone becomes a SMARTPHONE gateway: staff create a one-time code (the QR code's link), the phone
 * exchanges it once for a fresh gateway credential (docs/phone-gateway.md, "Enrolment").
 */
export function phoneEnrolmentService(ctx: AppContext) {
  const access = accessService(ctx.db);
  const limits = attemptLimitsService(ctx);
  const bracelets = braceletsService(ctx);

  return {
    /**
     * A new code for a SMARTPHONE gateway; the gateway's older unused codes stop working. Who carries
     * the phone (a wearer, or `null`: shared) is kept on the gateway and the phone's own bracelet is
     * paired to them in the same transaction (again at the phone's enrolment, with the same rule).
     */
    async create(
      actor: Actor,
      gatewayId: string,
      choice: { wearerId: string | null },
    ): Promise<PhoneEnrolmentResponse> {
      const at = await access.require(actor, 'gateway:manage', 'gateway', gatewayId);
      const gateway = await gatewaysRepository(ctx.db).find(gatewayId);
      if (!gateway) throw new ApiError(404, 'GATEWAY_NOT_FOUND', `Gateway ${gatewayId} not found`);
      if (gateway.type !== 'SMARTPHONE') {
        const message = `gateway ${gatewayId} is a ${gateway.type} gateway; only a SMARTPHONE gateway enrols a phone`;
        throw new ApiError(400, 'GATEWAY_NOT_SMARTPHONE', `gatewayId: ${message}`, [
          { path: 'params.gatewayId', message },
        ]);
      }
      let wearer: { id: string; name: string } | null = null;
      if (choice.wearerId !== null) {
        await access.require(actor, 'bracelet:pair', 'wearer', choice.wearerId);
        wearer = await phoneEnrolmentRepository(ctx.db).wearer(
          gateway.organizationId,
          null,
          choice.wearerId,
        );
        if (!wearer) throw notFoundError('wearer', choice.wearerId);
      }
      const code = randomBytes(24).toString('base64url');
      const now = ctx.now();
      const expiresAt = new Date(now.getTime() + PHONE_ENROLMENT_TTL_MS);
      const paired = await ctx.db.transaction(async (tx) => {
        const repo = phoneEnrolmentRepository(tx);
        await gatewaysRepository(tx).setPhoneCarrier(gatewayId, {
          shared: choice.wearerId === null,
          wearerId: choice.wearerId,
        });
        const pairing = await bracelets.pairPhone(tx, {
          organizationId: gateway.organizationId,
          gatewayId,
          gatewayName: gateway.name,
          wearerId: choice.wearerId,
        });
        await repo.replaceUnused(gatewayId, now);
        await repo.insert({
          codeHash: hashOf(code),
          gatewayId,
          createdBy: actor.uid,
          at: now,
          expiresAt,
        });
        await auditService(tx).record({
          organizationId: at.organizationId,
          actorId: actor.uid,
          kind: 'gateway.change',
          targetId: gatewayId,
          after: {
            enrolment: 'code created',
            expiresAt: expiresAt.toISOString(),
            carrier: choice.wearerId ?? 'shared',
          },
        });
        return pairing;
      });
      paired.changed();
      return {
        code,
        expiresAt: expiresAt.toISOString(),
        link: `${ctx.config.publicUrl}/phone#${PHONE_ENROL_FRAGMENT}=${code}`,
        localOnlyLinks: linksReachOnlyThisMachine(ctx.config),
        carrier: { shared: choice.wearerId === null, wearer, serialNumber: paired.serialNumber },
      };
    },

    /**
     * Uses the code once and answers a fresh credential for its gateway: the server keeps only
     * credential hashes, so the previous credential (an earlier phone) is refused from now on.
     */
    async enrol(code: string, clientAddress: string): Promise<EnrolPhoneResponse> {
      const now = ctx.now();
      const key = clientKey('enrol', clientAddress);
      await limits.take([[key, ENROL_TRIES_PER_CLIENT]], now);
      const codeHash = hashOf(code);
      const { credential, hash } = newCredential();
      const enrolled = await ctx.db.transaction(async (tx) => {
        const repo = phoneEnrolmentRepository(tx);
        const gatewayId = await repo.consume(codeHash, now);
        if (gatewayId === null) return null;
        await gatewaysRepository(tx).setCredentialHash(gatewayId, hash);
        const found = (await repo.enrolled(gatewayId))!;
        // The carrier chosen with the code; paired again here in case it changed meanwhile.
        const wearer =
          found.phoneWearerId === null
            ? null
            : await repo.wearer(found.organizationId, null, found.phoneWearerId);
        const pairing = await bracelets.pairPhone(tx, {
          organizationId: found.organizationId,
          gatewayId,
          gatewayName: found.gatewayName,
          wearerId: wearer?.id ?? null,
        });
        await auditService(tx).record({
          organizationId: found.organizationId,
          actorId: null,
          kind: 'gateway.change',
          targetId: gatewayId,
          after: { credential: 'rotated', enrolment: 'phone enrolled' },
        });
        return { ...found, wearer, pairing };
      });
      if (!enrolled) throw await whyRefused(codeHash, now);
      enrolled.pairing.changed();
      await limits.release(key);
      // The organisation's man-down setting: the phone follows it from its first minute.
      const policy = await alertPolicyService(ctx).load(ctx.db, enrolled.organizationId);
      const event: GatewayCredentialChangedEvent = { gatewayId: enrolled.gatewayId };
      ctx.bus.emit(BUS_EVENTS.gatewayCredentialChanged, event);
      return {
        gatewayId: enrolled.gatewayId,
        credential,
        organization: { id: enrolled.organizationId, name: enrolled.organizationName },
        group:
          enrolled.groupId !== null && enrolled.groupName !== null
            ? { id: enrolled.groupId, name: enrolled.groupName }
            : null,
        gatewayName: enrolled.gatewayName,
        settings: {
          manDownMinutes: policy.manDownMinutes,
          emergencyPhone: enrolled.emergencyPhone,
        },
        carrier: {
          shared: enrolled.phoneShared,
          wearer: enrolled.wearer,
          serialNumber: enrolled.pairing.serialNumber,
        },
      };
    },
  };

  async function whyRefused(codeHash: string, now: Date): Promise<ApiError> {
    const state = await phoneEnrolmentRepository(ctx.db).state(codeHash);
    if (!state)
      return refused(
        400,
        ENROLMENT_ERRORS.unknown,
        'this enrolment code is not known; ask for a new QR code',
      );
    if (state.usedAt !== null)
      return refused(
        410,
        ENROLMENT_ERRORS.used,
        'this enrolment code was already used; ask for a new QR code',
      );
    if (state.replacedAt !== null)
      return refused(
        410,
        ENROLMENT_ERRORS.replaced,
        'a newer enrolment code was created for this gateway; scan the newest QR code',
      );
    const expired = new Date(state.expiresAt).getTime() <= now.getTime();
    return refused(
      410,
      ENROLMENT_ERRORS.expired,
      expired
        ? 'this enrolment code expired (codes last 15 minutes); ask for a new QR code'
        : 'this enrolment code cannot be used; ask for a new QR code',
    );
  }
}
