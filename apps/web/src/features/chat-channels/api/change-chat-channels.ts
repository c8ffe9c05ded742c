import {
  type ConfigurableChannel,
  type ChatChannelBody,
  createChatLinkCode,
  deleteChatChannel,
  deleteChatLink,
  type LinkableChatChannel,
  listChatChannels,
  listChatLinks,
  putChatChannel,
  testChatChannel,
} from '@wearable/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call, invalidateEndpoints } from '../../../lib/endpoint';

function useChange<I, O>(run: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => invalidateEndpoints(queryClient, listChatChannels, listChatLinks),
  });
}

/** Set up or change a channel (a secret left out keeps its stored value). */
export const useSaveChatChannel = (organizationId: string) =>
  useChange((body: ChatChannelBody) =>
    call(putChatChannel, { params: { organizationId, channel: body.channel }, body }),
  );

export const useRemoveChatChannel = (organizationId: string) =>
  useChange((channel: ConfigurableChannel) =>
    call(deleteChatChannel, { params: { organizationId, channel } }),
  );

/** One test message to the channel (its outcome is also in the notification log). */
export const useTestChatChannel = (organizationId: string) =>
  useMutation({
    mutationFn: (channel: ConfigurableChannel) =>
      call(testChatChannel, { params: { organizationId, channel } }),
  });

/** A one-time link code for the bot or Slack's slash command. */
export const useCreateChatLinkCode = () => useChange(() => call(createChatLinkCode));

export const useRemoveChatLink = () =>
  useChange((channel: LinkableChatChannel) => call(deleteChatLink, { params: { channel } }));
