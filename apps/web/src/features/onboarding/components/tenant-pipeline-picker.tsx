import type { TenantPipelinesResponse } from '@aegis/contracts';
import { CLIENT_LACK_TEXT, tenantPipelineClient } from '@aegis/domain';
import { Field, MessageBar, MessageBarBody, Select, Spinner } from '@fluentui/react-components';
import { useQuery } from '@tanstack/react-query';

import { useClients } from '../../../lib/clients/use-clients';
import { listTenantPipelines } from '../api/onboarding-api';

export type TenantPipeline = TenantPipelinesResponse['pipelines'][number];

/**
 * The tenant pipelines (folder Tenants\{CODE}) to run against: choosing one chooses the client
 * (ADR 032). Fetched again whenever the tab changes (spec 2 §2: the tab unmounts it). A deploy
 * writes the client's configuration from main, so a client without one is shown with what it
 * lacks and cannot be chosen there (ADR 054); off-boarding acts on the tenant alone.
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
  const clients = useClients();
  const lacksOf = (p: TenantPipeline) => {
    const code = tenantPipelineClient(p.folder);
    const known = clients.data?.clients.find((c) => c.code === code);
    return tab === 'deploy' && known && !known.configuration ? CLIENT_LACK_TEXT.configuration : '';
  };
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
          <option key={p.id} value={String(p.id)} disabled={lacksOf(p) !== ''}>
            {p.name} - {p.folder}
            {lacksOf(p) && ` (${lacksOf(p)})`}
          </option>
        ))}
      </Select>
    </Field>
  );
}
