import type { WearerAlertSettings } from '@wearable/domain';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { unwrap } from '../../../lib/api-client';

/** Whose settings a staff page shows: an organisation's wearers, or one group's. */
export type AlertSettingsScope =
  { clientId: string; groupId?: undefined } | { groupId: string; clientId?: undefined };

export const alertSettingsListKey = (scope: AlertSettingsScope) =>
  ['alert-settings', 'list', scope.clientId ?? null, scope.groupId ?? null] as const;

/** GET /v2/user/alertSettings/list?clientId= | ?groupId=: every wearer of the scope the caller reaches, with effective settings. */
export const useAlertSettingsList = (scope: AlertSettingsScope) =>
  useQuery({
    queryKey: alertSettingsListKey(scope),
    queryFn: async (): Promise<WearerAlertSettings[]> =>
      unwrap(
        await api.get<{ settings: WearerAlertSettings[] }>('/v2/user/alertSettings/list', {
          query:
            scope.groupId === undefined ? { clientId: scope.clientId } : { groupId: scope.groupId },
        }),
      ).settings,
  });
