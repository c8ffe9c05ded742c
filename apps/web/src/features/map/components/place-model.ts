import {
  decodeMapPeople,
  type MapGateway,
  type MapPerson,
  type MapResponse,
} from '@wearable/domain';

/** The people placed at a gateway now, in the answer's order, and how many of them are urgent. */
export interface GatewayPeople {
  people: MapPerson[];
  urgent: number;
}

/** The people placed at each gateway now (place kind `gateway`), in the answer's order. */
export function peopleByGateway(people: readonly MapPerson[]): Map<string, GatewayPeople> {
  const at = new Map<string, GatewayPeople>();
  for (const p of people) {
    if (p.place.kind !== 'gateway') continue;
    let here = at.get(p.place.gatewayId);
    if (!here) {
      here = { people: [], urgent: 0 };
      at.set(p.place.gatewayId, here);
    }
    here.people.push(p);
    if (isUrgent(p)) here.urgent++;
  }
  return at;
}

/** Whether an open alert makes a person's card and marker urgent (pulse, first). */
export const isUrgent = (p: MapPerson): boolean =>
  p.alert !== null && (p.alert.level === 'EMERGENCY' || p.alert.level === 'CRITICAL');

/** An answer as the page reads it: the people decoded from their rows, the names by id. */
export interface PlaceMapView {
  people: MapPerson[];
  gateways: Map<string, MapGateway>;
  groups: Map<string, string>;
  atGateway: Map<string, GatewayPeople>;
}

/** Decodes an answer once (the page memoises it per answer). */
export function viewOf(map: MapResponse | undefined): PlaceMapView {
  const people = map ? decodeMapPeople(map) : [];
  return {
    people,
    gateways: new Map(map?.gateways.map((g) => [g.gatewayId, g])),
    groups: new Map(map?.groups.map((g) => [g.groupId, g.name])),
    atGateway: peopleByGateway(people),
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
