import { listAlertSettings } from '@wearable/domain';
import { useQuery } from '@tanstack/react-query';
import { endpointQuery } from '../../../lib/endpoint';

/** Whose settings a staff page shows: an organisation's wearers, or one group's. */
export type AlertSettingsScope =
  { clientId: string; groupId?: undefined } | { groupId: string; clientId?: undefined };

/** Every wearer of the scope the caller reaches, with effective settings. */
export const useAlertSettingsList = (scope: AlertSettingsScope) =>
  useQuery({
    ...endpointQuery(listAlertSettings, {
      query:
        scope.groupId === undefined ? { clientId: scope.clientId } : { groupId: scope.groupId },
    }),
    select: (answer) => answer.settings,
  });
