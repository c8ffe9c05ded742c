import { listChatChannels, listChatLinks } from '@wearable/domain';
import { useQuery } from '@tanstack/react-query';
import { endpointQuery } from '../../../lib/endpoint';

/** The organisation's chat channels (never their secrets: the last four characters only). */
export const useChatChannels = (organizationId: string) =>
  useQuery(endpointQuery(listChatChannels, { params: { organizationId } }));

/** One's own links to Slack and LINE WORKS users (the account page). */
export const useChatLinks = (enabled: boolean) =>
  useQuery({ ...endpointQuery(listChatLinks), enabled });
