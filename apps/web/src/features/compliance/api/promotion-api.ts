import type {
  PromotionBody,
  PromotionPreviewDto,
  ProposedSettingsChangeDto,
} from '@aegis/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';

/** What promoting the client's policy into the company baseline (or a layer) would write. */
export function usePromotionPreview(client: string, path: string, layer: string | undefined) {
  return useQuery({
    queryKey: ['promotion', client, path, layer ?? ''],
    queryFn: ({ signal }) => {
      const query = new URLSearchParams({ path, ...(layer ? { layer } : {}) });
      return api<PromotionPreviewDto>(
        `/api/clients/${encodeURIComponent(client)}/promotions?${query.toString()}`,
        { signal },
      );
    },
  });
}

/** The promotion proposed as a pull request that someone else approves. */
export function usePromote(client: string) {
  return useMutation({
    mutationFn: (body: PromotionBody) =>
      api<ProposedSettingsChangeDto>(`/api/clients/${encodeURIComponent(client)}/promotions`, {
        method: 'POST',
        body,
      }),
  });
}
