import { checkAppDeployClientCode, type AppDeployFlow } from '@aegis/domain';
import { useQuery } from '@tanstack/react-query';

import { listAppDeployOnboardingPipelines, listAppTables } from '../api/onboarding-api';

/**
 * Spec 2 §4, §5: the app-deploy client code checks in order (format, a table starting with the
 * code, not already onboarded: its app pipeline or a Tenants pipeline, ADR 055). `undefined`
 * while a check loads.
 */
export function useAppDeployCodeCheck(code: string, flow: AppDeployFlow) {
  const tables = useQuery({
    queryKey: ['onboarding', 'app-tables'],
    queryFn: ({ signal }) => listAppTables(signal),
    retry: false,
  });
  const pipelines = useQuery({
    queryKey: ['onboarding', 'app-deploy-pipelines'],
    queryFn: ({ signal }) => listAppDeployOnboardingPipelines(signal),
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
