import {
  Field,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Select,
  Spinner,
  Tab,
  TabList,
  Text,
} from '@fluentui/react-components';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';

import { PageHeader } from '../../components/page-header';
import { paths } from '../../config/paths';

import { listTenantPipelines } from './api/onboarding-api';
import { OnboardTenantTab } from './components/onboard-tenant-tab';

const useStyles = makeStyles({
  page: { display: 'grid', gap: '16px' },
  panel: { display: 'grid', gap: '12px', maxWidth: '760px' },
});

/** Spec 2 §2: the tabs' identifiers. */
export type BaselineTab = 'onboardnew' | 'deploy' | 'offboard';

/**
 * Spec 2 §2: the tenant baseline screen (/tenant-baseline-options, also the admin consent return
 * address). The deploy and off-board tabs list the tenant pipelines, reloaded on every tab change.
 */
export function TenantBaselinePage() {
  const styles = useStyles();
  const [tab, setTab] = useState<BaselineTab>('onboardnew');
  return (
    <div className={styles.page}>
      <PageHeader
        title="Tenant Baseline Options"
        subtitle="On-board a tenant, deploy baseline components or off-board them."
      />
      <Text size={200}>
        Looking for the &apos;Options - Aegis&apos; comparison? It is now in{' '}
        <RouterLink to={paths.comparison.getHref('options')}>Configuration Comparison</RouterLink>.
      </Text>
      <TabList
        selectedValue={tab}
        onTabSelect={(_e, data) => setTab(data.value as BaselineTab)}
        aria-label="Tenant baseline options"
      >
        <Tab value="onboardnew">On-Board Tenant (New)</Tab>
        <Tab value="deploy">Baseline Deployment</Tab>
        <Tab value="offboard">Off-Board Tenant</Tab>
      </TabList>
      <div role="tabpanel" aria-label={tabLabel(tab)} className={styles.panel}>
        {tab === 'onboardnew' ? <OnboardTenantTab /> : <PipelineList key={tab} tab={tab} />}
      </div>
    </div>
  );
}

function tabLabel(tab: BaselineTab): string {
  return tab === 'onboardnew'
    ? 'On-Board Tenant (New)'
    : tab === 'deploy'
      ? 'Baseline Deployment'
      : 'Off-Board Tenant';
}

/** The tenant pipelines to run against; fetched again whenever the tab changes (spec 2 §2). */
function PipelineList({ tab }: { tab: Exclude<BaselineTab, 'onboardnew'> }) {
  const [selected, setSelected] = useState('');
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
  return (
    <Field
      label="Pipeline"
      hint={pipelines.data.pipelines.length === 0 ? 'No tenant pipelines yet.' : undefined}
    >
      <Select value={selected} onChange={(_e, data) => setSelected(data.value)}>
        <option value="">Select a pipeline</option>
        {pipelines.data.pipelines.map((p) => (
          <option key={p.id} value={String(p.id)}>
            {p.name} - {p.folder}
          </option>
        ))}
      </Select>
    </Field>
  );
}
