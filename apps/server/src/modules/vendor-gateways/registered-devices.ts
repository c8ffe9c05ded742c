import type { Queryable } from '../../db/client.js';
import { vendorGatewaysRepository } from './vendor-gateways.repository.js';
import { type DeviceOwners, rememberBounded } from './vendor-gateways.state.js';

/** How long a device's organisation is remembered without a `bracelet.changed` (see DeviceOwners). */
export const OWNER_TTL_MS = 30_000;
/** About 100 bytes each: a flood of random MACs costs at most ~10 MB here (oldest written evicted). */
const MAX_ENTRIES = 100_000;

/** The device ids among these that are bracelets of this organisation (serial number = device id). */
export async function registeredAmong(
  owners: DeviceOwners,
  db: Queryable,
  organizationId: string,
  deviceIds: string[],
): Promise<Set<string>> {
  const now = Date.now();
  const registered = new Set<string>();
  const missing: string[] = [];
  for (const id of deviceIds) {
    const hit = owners.entries.get(id);
    if (hit && hit.expires > now) {
      if (hit.organizationId === organizationId) registered.add(id);
    } else missing.push(id);
  }
  if (missing.length === 0) return registered;
  const generation = owners.generation;
  const found = await vendorGatewaysRepository(db).ownersOf(missing);
  const keep = generation === owners.generation;
  for (const id of missing) {
    const owner = found.get(id) ?? null;
    if (owner === organizationId) registered.add(id);
    if (keep)
      rememberBounded(
        owners.entries,
        id,
        { organizationId: owner, expires: now + OWNER_TTL_MS },
        MAX_ENTRIES,
      );
  }
  return registered;
}

/** A bracelet changed: its device is looked up again on its next advertisement. */
export function forgetOwner(owners: DeviceOwners, serialNumber: string): void {
  owners.generation++;
  owners.entries.delete(serialNumber);
}

/** Every device is looked up again (the cluster bus was down: changes may have been missed). */
export function forgetAllOwners(owners: DeviceOwners): void {
  owners.generation++;
  owners.entries.clear();
}
