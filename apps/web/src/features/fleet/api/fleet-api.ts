import type { Fleet, FleetDriftDto, FleetTrend, FleetTrendList } from '@aegis/contracts';
import { useQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';

/** Points of each row's sparkline, and of the per-client chart. */
const SPARKLINE_POINTS = 12;
const CHART_POINTS = 40;

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

/** Every client's drift as its last scheduled check recorded it (ADR 063). */
export function useFleetDrift() {
  return useQuery({
    queryKey: ['fleet', 'drift'],
    queryFn: ({ signal }) => api<FleetDriftDto>('/api/drift', { signal }),
  });
}
