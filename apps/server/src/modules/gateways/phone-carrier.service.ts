import {
  GATEWAY_SIGNED_OUT_CODE,
  PHONE_CARRIER_ERRORS,
  type PhoneCarrier,
  type PhoneDeliveryFailureBody,
  type PhoneWearersResponse,
} from '@wearable/domain';
import { notFoundError } from '../../access/access.service.js';
import type { AppContext } from '../../context.js';
import { ApiError, conflict, unauthorized } from '../../errors.js';
import { auditService } from '../audit/audit.service.js';
import { braceletsService } from '../bracelets/bracelets.service.js';
import { authenticateGateway, parseGatewayAuthorization } from '../ingestion/ingestion.service.js';
import { gatewaysRepository, type GatewayRow } from './gateways.repository.js';
import { phoneEnrolmentRepository } from './phone-enrolment.repository.js';

/** How an enrolled phone identifies itself: its `Authorization: Gateway id:credential` and address. */
export interface PhoneCaller {
  authorization: string | undefined;
  address: string;
}

const signedOut = () =>
  unauthorized(
    'Gateway signed out: unknown gateway or wrong credential; enrol the phone again',
    GATEWAY_SIGNED_OUT_CODE,
  );

/**
 * What an enrolled phone asks of its organisation (issue 34): a shared phone's list of people and its
 * choice of who carries it now, and the SOS or fall it could not deliver. Every call is scoped to the
 * phone's own gateway and organisation by its credential.
 */
export function phoneCarrierService(ctx: AppContext) {
  const bracelets = braceletsService(ctx);

  /** The caller's SMARTPHONE gateway, else 401 (not a gateway's credential) or 400 (not a phone). */
  async function phoneGateway(caller: PhoneCaller): Promise<GatewayRow> {
    const auth = parseGatewayAuthorization(caller.authorization);
    const gateway = auth
      ? await authenticateGateway(ctx, auth.gatewayId, auth.credential, caller.address)
      : null;
    if (!gateway) throw signedOut();
    const row = await gatewaysRepository(ctx.db).find(gateway.id);
    if (!row) throw signedOut();
    if (row.type !== 'SMARTPHONE')
      throw new ApiError(
        400,
        'GATEWAY_NOT_SMARTPHONE',
        `gateway ${row.id} is a ${row.type} gateway; only a phone gateway chooses its carrier`,
      );
    return row;
  }

  async function sharedPhone(caller: PhoneCaller): Promise<GatewayRow> {
    const gateway = await phoneGateway(caller);
    if (!gateway.phoneShared)
      throw conflict(
        `this phone is carried by a named wearer; staff change that with a new enrolment code`,
        PHONE_CARRIER_ERRORS.notShared,
      );
    return gateway;
  }

  return {
    async wearers(caller: PhoneCaller): Promise<PhoneWearersResponse> {
      const gateway = await sharedPhone(caller);
      const wearers = await phoneEnrolmentRepository(ctx.db).wearers(
        gateway.organizationId,
        gateway.groupId,
      );
      return { wearers };
    },

    /** A shared phone's person: kept on the gateway, the phone's bracelet re-paired to them, in one transaction. */
    async choose(caller: PhoneCaller, wearerId: string): Promise<PhoneCarrier> {
      const gateway = await sharedPhone(caller);
      const wearer = await phoneEnrolmentRepository(ctx.db).wearer(
        gateway.organizationId,
        gateway.groupId,
        wearerId,
      );
      // Another organisation's or another group's wearer answers as an unknown one.
      if (!wearer) throw notFoundError('wearer', wearerId);
      const pairing = await ctx.db.transaction(async (tx) => {
        await gatewaysRepository(tx).setPhoneCarrier(gateway.id, { shared: true, wearerId });
        const paired = await bracelets.pairPhone(tx, {
          organizationId: gateway.organizationId,
          gatewayId: gateway.id,
          gatewayName: gateway.name,
          wearerId,
        });
        await auditService(tx).record({
          organizationId: gateway.organizationId,
          actorId: null,
          kind: 'gateway.change',
          targetId: gateway.id,
          after: { carrier: wearerId, chosen: 'on the phone' },
        });
        return paired;
      });
      pairing.changed();
      return { shared: true, wearer, serialNumber: pairing.serialNumber };
    },

    /** "Phone gateway X could not deliver an SOS: reason": kept on the gateway for staff, and audited. */
    async reportFailure(caller: PhoneCaller, failure: PhoneDeliveryFailureBody): Promise<void> {
      const gateway = await phoneGateway(caller);
      const at = new Date(failure.at).toISOString();
      await ctx.db.transaction(async (tx) => {
        await gatewaysRepository(tx).setPhoneFailure(gateway.id, {
          at,
          type: failure.type,
          reason: failure.reason,
          reportedAt: ctx.now().toISOString(),
        });
        await auditService(tx).record({
          organizationId: gateway.organizationId,
          actorId: null,
          kind: 'gateway.change',
          targetId: gateway.id,
          after: { undelivered: failure.type, at, reason: failure.reason },
        });
      });
      ctx.log.warn(
        { gatewayId: gateway.id, type: failure.type, at, reason: failure.reason },
        `phone gateway ${gateway.name} could not deliver an ${failure.type}`,
      );
    },
  };
}
