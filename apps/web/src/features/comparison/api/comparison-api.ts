import type {
  ComparisonResult,
  Configurations,
  PolicyFiles,
  RunComparisonBody,
} from '@aegis/contracts';
import { useQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { readProgressStream } from '../../../lib/progress-stream';

/** Runs a comparison on the server; progress arrives as the server does the work. */
export function runComparison(
  body: RunComparisonBody,
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
): Promise<ComparisonResult> {
  return readProgressStream<ComparisonResult>(
    '/api/comparison/runs',
    { method: 'POST', body, ...(signal ? { signal } : {}) },
    onProgress,
  );
}

/** Both configurations for viewing: listing 0–50, downloads 50–100 (spec 1 §4). */
export function loadConfigurations(
  client: string,
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
): Promise<Configurations> {
  return readProgressStream<Configurations>(
    `/api/comparison/clients/${client}/configurations`,
    signal ? { signal } : {},
    onProgress,
  );
}

export function usePolicyFiles(client: string, path: string | undefined) {
  return useQuery({
    queryKey: ['comparison', 'policy', client, path],
    enabled: Boolean(path),
    staleTime: Infinity,
    queryFn: ({ signal }) =>
      api<PolicyFiles>(
        `/api/comparison/clients/${client}/policy?path=${encodeURIComponent(path ?? '')}`,
        { signal },
      ),
  });
}
