import { getNoticeSettings } from '@wearable/domain';
import { useQuery } from '@tanstack/react-query';
import { endpointKey, endpointQuery } from '../../../lib/endpoint';

export const noticeSettingsKey = (groupId: string) =>
  endpointKey(getNoticeSettings, { params: { groupId } });

/** The group's recipients, its name and organisation. */
export const useNoticeSettings = (groupId: string) =>
  useQuery(endpointQuery(getNoticeSettings, { params: { groupId } }));
