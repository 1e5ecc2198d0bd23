import { checkAppDeployClientCode, type AppDeployFlow } from '@aegis/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';

import { listAppTables, listTenantPipelines } from '../api/onboarding-api';

const PIPELINES_KEY = ['onboarding', 'tenant-pipelines', 'app-deploy'];

/**
 * Spec 2 §4, §5: the app-deploy client code checks in order (format, a table starting with the
 * code, not already onboarded under the Tenants folder). `undefined` while a check loads.
 */
export function useAppDeployCodeCheck(code: string, flow: AppDeployFlow) {
  const tables = useQuery({
    queryKey: ['onboarding', 'app-tables'],
    queryFn: ({ signal }) => listAppTables(signal),
    retry: false,
  });
  const pipelines = useQuery({
    queryKey: PIPELINES_KEY,
    queryFn: ({ signal }) => listTenantPipelines(signal),
    retry: false,
  });
  if (code === '') return undefined;
  const result = checkAppDeployClientCode(
    code,
    flow,
    tables.isError ? undefined : tables.data?.tables,
    pipelines.isError ? undefined : pipelines.data?.pipelines.map((p) => `${p.folder}\\${p.name}`),
  );
  const loading =
    (result.state === 'table-check-failed' && tables.isPending) ||
    (result.state === 'pipeline-check-failed' && pipelines.isPending);
  return loading ? undefined : result;
}

/**
 * Reads the Tenants folder again, e.g. once an onboarding run has finished: the code then reads
 * '{code} has already been onboarded.' instead of the validation it had before the run.
 */
export function useRecheckOnboarded(): () => void {
  const queryClient = useQueryClient();
  return useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: PIPELINES_KEY });
  }, [queryClient]);
}
