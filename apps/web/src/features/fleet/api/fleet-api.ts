import type { Fleet, FleetTrend, FleetTrendList } from '@aegis/contracts';
import { useQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';

/** Points of each row's sparkline, and of the per-client chart. */
export const SPARKLINE_POINTS = 12;
export const CHART_POINTS = 40;

export function useFleet() {
  return useQuery({
    queryKey: ['fleet'],
    queryFn: ({ signal }) => api<Fleet>('/api/fleet', { signal }),
  });
}

export function useFleetTrends() {
  return useQuery({
    queryKey: ['fleet', 'trends', SPARKLINE_POINTS],
    queryFn: ({ signal }) =>
      api<FleetTrendList>(`/api/fleet/trends?points=${SPARKLINE_POINTS}`, { signal }),
  });
}

export function useClientTrend(client: string | undefined) {
  return useQuery({
    queryKey: ['fleet', 'trend', client, CHART_POINTS],
    enabled: Boolean(client),
    queryFn: ({ signal }) =>
      api<FleetTrend>(
        `/api/fleet/${encodeURIComponent(client ?? '')}/trend?points=${CHART_POINTS}`,
        { signal },
      ),
  });
}
