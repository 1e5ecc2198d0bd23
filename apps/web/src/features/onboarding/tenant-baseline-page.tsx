import { makeStyles, Tab, TabList, Text, tokens } from '@fluentui/react-components';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';

import { PageHeader } from '../../components/page-header';
import { paths } from '../../config/paths';

import { BaselineDeploymentTab } from './components/baseline-deployment-tab';
import { OffboardTab } from './components/offboard-tab';
import { OnboardTenantTab } from './components/onboard-tenant-tab';

const useStyles = makeStyles({
  page: { display: 'grid', gap: '16px' },
  panel: { display: 'grid', gap: '12px', maxWidth: '1100px' },
  // the router's link in Fluent's link colours (not the browser's default blue and purple),
  // underlined: inside a sentence a link must not be told apart by colour alone (WCAG 1.4.1)
  link: {
    color: tokens.colorBrandForegroundLink,
    textDecorationLine: 'underline',
    ':hover': { color: tokens.colorBrandForegroundLinkHover },
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}`, borderRadius: '2px' },
  },
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
        <RouterLink className={styles.link} to={paths.comparison.getHref('options')}>
          Configuration Comparison
        </RouterLink>
        .
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
        {tab === 'onboardnew' ? (
          <OnboardTenantTab />
        ) : tab === 'deploy' ? (
          <BaselineDeploymentTab key="deploy" />
        ) : (
          <OffboardTab key="offboard" />
        )}
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
