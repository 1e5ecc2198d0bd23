import type { TenantPipelinesResponse } from '@aegis/contracts';
import { Field, MessageBar, MessageBarBody, Select, Spinner } from '@fluentui/react-components';
import { useQuery } from '@tanstack/react-query';

import { listTenantPipelines } from '../api/onboarding-api';

export type TenantPipeline = TenantPipelinesResponse['pipelines'][number];

/**
 * The tenant pipelines (folder Tenants\{CODE}) to run against: choosing one chooses the client
 * (ADR 032). Fetched again whenever the tab changes (spec 2 §2: the tab unmounts it).
 */
export function TenantPipelinePicker({
  tab,
  value,
  onChange,
}: {
  tab: 'deploy' | 'offboard';
  value: TenantPipeline | undefined;
  onChange: (pipeline: TenantPipeline | undefined) => void;
}) {
  const pipelines = useQuery({
    queryKey: ['onboarding', 'tenant-pipelines', tab],
    queryFn: ({ signal }) => listTenantPipelines(signal),
    staleTime: 0,
    gcTime: 0,
  });
  if (pipelines.isPending) return <Spinner size="small" label="Loading pipelines..." />;
  if (pipelines.isError)
    return (
      <MessageBar intent="error" role="alert">
        <MessageBarBody>Failed to fetch pipelines. Please try again.</MessageBarBody>
      </MessageBar>
    );
  const list = pipelines.data.pipelines;
  return (
    <Field
      label="Pipeline"
      hint={
        list.length === 0
          ? 'No tenant pipelines yet: onboard a tenant first.'
          : 'The client tenant to act on.'
      }
    >
      <Select
        value={value ? String(value.id) : ''}
        onChange={(_e, data) => onChange(list.find((p) => String(p.id) === data.value))}
      >
        <option value="">Select a pipeline</option>
        {list.map((p) => (
          <option key={p.id} value={String(p.id)}>
            {p.name} - {p.folder}
          </option>
        ))}
      </Select>
    </Field>
  );
}
