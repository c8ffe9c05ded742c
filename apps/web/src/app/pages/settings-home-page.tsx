import { ChannelHealth } from '../../features/channel-health/components/channel-health';
import { SettingsPage } from '../../features/people/components/settings-page';
import { useCurrentUser } from '../../lib/current-user';
import { useCan } from '../../lib/use-can';

/**
 * /settings: the channels' health first (issue 38 item 4: owners and group managers of an
 * organisation; platform staff read it through the API), then the audit log, the sign-in policy
 * and the access log.
 */
export function SettingsHomePage() {
  const mayReadChannels = useCan('channelHealth:read');
  const organizationId = useCurrentUser()?.mediromOrganizationId ?? null;
  return (
    <SettingsPage
      sections={
        mayReadChannels && organizationId ? <ChannelHealth organizationId={organizationId} /> : null
      }
    />
  );
}
