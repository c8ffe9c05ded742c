import { HeatRuleView } from '../../features/heat-rule';
import { SiteHeatChanges, SiteHeatNow } from '../../features/site-heat';

/** /groups/{groupId}/heat-rule: the heat-rule area's page with the site-heat area's now and changes composed in. */
export function HeatRulePage() {
  return (
    <HeatRuleView
      siteHeatNow={({ clientId, groupId }) => <SiteHeatNow clientId={clientId} groupId={groupId} />}
      siteHeatChanges={(changes) => <SiteHeatChanges changes={changes} />}
    />
  );
}
