import { checkAppDeployClientCode, type AppDeployFlow } from '@aegis/domain';
import { useQuery } from '@tanstack/react-query';

import { listAppTables, listTenantPipelines } from '../api/onboarding-api';

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
    queryKey: ['onboarding', 'tenant-pipelines', 'app-deploy'],
    queryFn: ({ signal }) => listTenantPipelines(signal),
    retry: false,
  });
  if (code === '') return undefined;
  const result = checkAppDeployClientCode(
    code,
    flow,
    tables.isError ? undefined : tables.data?.tables,
    pipelines.isError ? undefined : pipelines.data?.pipelines,
  );
  const loading =
    (result.state === 'table-check-failed' && tables.isPending) ||
    (result.state === 'pipeline-check-failed' && pipelines.isPending);
  return loading ? undefined : result;
}
