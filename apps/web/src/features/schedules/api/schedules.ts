import type { ClientScheduleList, ScheduleUpdated, UpdateSchedule } from '@aegis/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';

import { api } from '../../../lib/api-client';
import { readProgressStream } from '../../../lib/progress-stream';

const key = ['schedules'] as const;

/** The client schedule rows, with the load's progress in percent (the screen's loading bar). */
export function useScheduleRows() {
  const [percent, setPercent] = useState(0);
  const query = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => {
      setPercent(0);
      return readProgressStream<ClientScheduleList>('/api/schedules', { signal }, setPercent);
    },
  });
  return { ...query, percent };
}

export function useUpdateSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ clientCode, ...body }: UpdateSchedule & { clientCode: string }) =>
      api<ScheduleUpdated>(`/api/schedules/${encodeURIComponent(clientCode)}`, {
        method: 'PUT',
        body,
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
