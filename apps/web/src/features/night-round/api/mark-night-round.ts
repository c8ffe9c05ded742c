import { markNightRound, type NightRoundSheet, type RoundMarkBody } from '@wearable/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/endpoint';
import { nightRoundQuery } from './get-night-round';

/** Records "looked at this resident" for the signed-in staff member now; the sheet shows the mark at once. */
export function useMarkNightRound(groupId: string) {
  const queryClient = useQueryClient();
  const { queryKey } = nightRoundQuery(groupId);
  return useMutation({
    mutationFn: (body: RoundMarkBody) => call(markNightRound, { params: { groupId }, body }),
    onSuccess: (mark) => {
      queryClient.setQueryData<NightRoundSheet>(queryKey, (sheet) =>
        sheet === undefined || sheet.night !== mark.night
          ? sheet
          : {
              ...sheet,
              wearers: sheet.wearers.map((r) =>
                r.uid === mark.uid ? { ...r, marks: [mark, ...r.marks] } : r,
              ),
            },
      );
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey }),
  });
}
