import { NightRoundView } from '../../features/night-round';

/** /groups/{groupId}/round: the care home's night round of one group. */
export function NightRoundPage() {
  return <NightRoundView />;
}
