import {
  makeStyles,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  Card,
  Text,
  tokens,
} from '@fluentui/react-components';
import { useSearchParams } from 'react-router';

import { useClients } from '../../lib/clients/use-clients';
import { usePageTitle } from '../../lib/use-page-title';

import { AreaDetailsDialog } from './components/area-details-dialog';
import { BothConfigurationsPanel } from './components/both-configurations-panel';
import { ComparisonControls } from './components/comparison-controls';
import { ComparisonResults } from './components/comparison-results';
import { ConfigInfoDialog } from './components/config-info-dialog';
import { ExportReportDialog } from './components/export-report-dialog';
import { ProgressPanel } from './components/progress-panel';
import { useComparisonFlow } from './hooks/use-comparison-flow';

export const COMPARISON_TITLE = 'Microsoft 365 Configuration Compliance Assessment';
export const OPTIONS_HEADING = 'Options - Aegis';
export const STANDARD_NOTE =
  'The CIS Standard Baseline shows general security best practices (70 checks drawn from CIS, Maester and CISA SCuBA). It is not your company baseline: choose Options Baseline to compare the client with it.';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: '16px' },
  variantHeading: { color: tokens.colorBrandForeground1, margin: 0 },
  subtitle: { color: tokens.colorNeutralForeground3 },
  empty: { padding: '32px', textAlign: 'center' },
});

/**
 * Configuration Comparison (spec 1 §2): choose a client and a baseline, run the comparison on the
 * server with streamed progress, then explore, filter and export the results. `variant` 'options'
 * is the tenant-baseline-options heading variant.
 */
export function ComparisonPage({ variant = 'comparison' }: { variant?: 'comparison' | 'options' }) {
  const styles = useStyles();
  usePageTitle(variant === 'options' ? OPTIONS_HEADING : COMPARISON_TITLE);
  const clients = useClients();
  const flow = useComparisonFlow(variant === 'options' ? 'options' : 'standard');
  const { dialog } = flow;
  const close = () => flow.dispatch({ type: 'close' });

  return (
    <div className={styles.page}>
      {variant === 'options' && (
        <Text as="h1" size={800} weight="bold" className={styles.variantHeading}>
          {OPTIONS_HEADING}
        </Text>
      )}
      <div>
        <Text as={variant === 'options' ? 'h2' : 'h1'} size={700} weight="semibold" block>
          {COMPARISON_TITLE}
        </Text>
        <Text className={styles.subtitle}>
          Compare a client&apos;s tenant configuration with a baseline
        </Text>
      </div>

      <ComparisonControls flow={flow} clients={clients} />

      {clients.isError && (
        <MessageBar intent="error">
          <MessageBarBody>{`Error fetching clients: ${clients.error.message}`}</MessageBarBody>
        </MessageBar>
      )}
      {clients.isSuccess && clients.data.clients.length === 0 && (
        <MessageBar intent="warning">
          <MessageBarBody>
            No clients found under /Clients in the configuration repository.
          </MessageBarBody>
        </MessageBar>
      )}

      {flow.address.baselineType === 'standard' && (
        <MessageBar intent="info" layout="multiline">
          <MessageBarBody>
            <MessageBarTitle>Note</MessageBarTitle>
            {STANDARD_NOTE}
          </MessageBarBody>
        </MessageBar>
      )}

      {flow.run.status === 'idle' && (
        <Card className={styles.empty}>
          <Text>
            Choose a client and a baseline type, then select Run Comparison to assess the client's
            configuration.
          </Text>
        </Card>
      )}
      {(flow.running || flow.finished) && (
        <ProgressPanel percent={flow.progress.percent} label="Comparison" />
      )}
      {flow.run.status === 'error' && (
        <MessageBar intent="error" layout="multiline">
          <MessageBarBody>
            <MessageBarTitle>Comparison failed</MessageBarTitle>
            <div>{flow.run.message}</div>
          </MessageBarBody>
        </MessageBar>
      )}

      {flow.view && <ComparisonResults flow={flow} view={flow.view} />}

      <BothConfigurationsPanel flow={flow} />

      <AreaDetailsDialog
        category={dialog.open === 'area' ? dialog.category : undefined}
        onClose={close}
      />
      <ConfigInfoDialog
        key={dialog.open === 'info' ? dialog.policy.key : undefined}
        client={flow.result?.client ?? flow.address.client}
        policy={dialog.open === 'info' ? dialog.policy : undefined}
        onClose={close}
      />
      <ExportReportDialog open={dialog.open === 'export'} result={flow.result} onClose={close} />
    </div>
  );
}

export function OptionsComparisonPage() {
  return <ComparisonPage variant="options" />;
}

/** /fetch-json-files; `?baseline=options` opens the 'Options - Aegis' variant (ADR 021). */
export function ComparisonRoutePage() {
  const [params] = useSearchParams();
  const variant = params.get('baseline') === 'options' ? 'options' : 'comparison';
  return <ComparisonPage key={variant} variant={variant} />;
}
