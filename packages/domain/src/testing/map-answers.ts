import type {
  MapGateway,
  MapPerson,
  MapPersonRow,
  MapPlaceRow,
  MapResponse,
} from '../contracts/map.js';

/**
 * A /map answer from people as the page reads them (the inverse of `decodeMapPeople`), for tests
 * that state their fixture in words: gateways and groups are looked up by id and must be listed.
 */
export function mapAnswerOf(
  answer: Omit<MapResponse, 'people'> & { people: readonly MapPerson[] },
): MapResponse {
  const gatewayAt = (id: string) => {
    const i = answer.gateways.findIndex((g: MapGateway) => g.gatewayId === id);
    if (i < 0) throw new Error(`mapAnswerOf: gateway ${id} is not in gateways`);
    return i;
  };
  const ms = (iso: string) => new Date(iso).getTime();
  const placeRow = (p: MapPerson['place']): MapPlaceRow => {
    switch (p.kind) {
      case 'gateway':
        return ['gateway', gatewayAt(p.gatewayId), ms(p.since)];
      case 'last-heard':
        return ['last-heard', gatewayAt(p.gatewayId), ms(p.at)];
      case 'position':
        return ['position', gatewayAt(p.gatewayId), ms(p.at), p.latitude, p.longitude, p.accuracy];
      case 'unknown':
      case 'withheld':
        return [p.kind];
    }
  };
  return {
    ...answer,
    people: answer.people.map((p): MapPersonRow => [
      p.wearerId,
      p.name,
      p.groupId === null ? null : answer.groups.findIndex((g) => g.groupId === p.groupId),
      placeRow(p.place),
      p.alert ? [p.alert.alertId, p.alert.type, p.alert.level, ms(p.alert.openedAt)] : null,
    ]),
  };
}
