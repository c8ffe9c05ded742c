import type { MapGateway, MapPerson, MapResponse } from '@wearable/domain';

/** The people placed at each gateway now (place kind `gateway`), in the answer's order. */
export function peopleByGateway(people: readonly MapPerson[]): Map<string, MapPerson[]> {
  const at = new Map<string, MapPerson[]>();
  for (const p of people) {
    if (p.place.kind !== 'gateway') continue;
    const list = at.get(p.place.gatewayId);
    if (list) list.push(p);
    else at.set(p.place.gatewayId, [p]);
  }
  return at;
}

/** Whether an open alert makes a person's card and marker urgent (pulse, first). */
export const isUrgent = (p: MapPerson): boolean =>
  p.alert !== null && (p.alert.level === 'EMERGENCY' || p.alert.level === 'CRITICAL');

/** Gateways and groups of an answer by id. */
export function lookupsOf(map: MapResponse): {
  gateways: Map<string, MapGateway>;
  groups: Map<string, string>;
} {
  return {
    gateways: new Map(map.gateways.map((g) => [g.gatewayId, g])),
    groups: new Map(map.groups.map((g) => [g.groupId, g.name])),
  };
}

/**
 * The site the map opens on: the one where the most urgent placed person is, else the first site
 * with a plan; null without any plan.
 */
export function firstSite(
  people: readonly MapPerson[],
  gateways: Map<string, MapGateway>,
  sitesWithPlans: readonly string[],
): string | null {
  for (const p of people) {
    if (!p.alert) break;
    if (p.place.kind !== 'gateway') continue;
    const site = gateways.get(p.place.gatewayId)?.siteId;
    if (site && sitesWithPlans.includes(site)) return site;
  }
  return sitesWithPlans[0] ?? null;
}
