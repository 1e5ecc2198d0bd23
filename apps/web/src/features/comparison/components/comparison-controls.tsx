import type { ComparisonBaselineType } from '@aegis/contracts';
import {
  Button,
  Card,
  Field,
  makeStyles,
  Radio,
  RadioGroup,
  Spinner,
} from '@fluentui/react-components';
import {
  ArrowDownloadRegular,
  DocumentBulletListRegular,
  PlayRegular,
} from '@fluentui/react-icons';

import { ClientPicker } from '../../../components/client-picker';
import type { useClients } from '../../../lib/clients/use-clients';
import type { ComparisonFlow } from '../hooks/use-comparison-flow';
import { BASELINE_LABELS } from '../utils/view-model';

const useStyles = makeStyles({
  controls: {
    display: 'flex',
    flexDirection: 'row',
    gap: '24px',
    alignItems: 'flex-end',
    justifyContent: 'flex-start',
    flexWrap: 'wrap',
    padding: '16px',
  },
  select: { minWidth: '240px' },
  actions: { display: 'flex', gap: '8px', flexWrap: 'wrap', alignItems: 'center' },
});

/** The client, the baseline type, and the comparison's actions. */
export function ComparisonControls({
  flow,
  clients,
}: {
  flow: ComparisonFlow;
  clients: ReturnType<typeof useClients>;
}) {
  const styles = useStyles();
  const { client, baselineType } = flow.address;
  return (
    <Card className={styles.controls}>
      <ClientPicker
        className={styles.select}
        value={client}
        onChange={flow.chooseClient}
        clients={clients.data?.clients}
        loading={clients.isPending}
        placeholder="Choose a client..."
        placeholderSelectable={false}
        needs={['configuration']}
      />
      <Field label="Baseline type">
        <RadioGroup
          layout="horizontal"
          value={baselineType}
          onChange={(_e, data) => flow.chooseBaseline(data.value as ComparisonBaselineType)}
        >
          <Radio value="standard" label={BASELINE_LABELS.standard} />
          <Radio value="options" label={BASELINE_LABELS.options} />
        </RadioGroup>
      </Field>
      <div className={styles.actions}>
        <Button
          appearance="primary"
          icon={flow.running ? <Spinner size="extra-tiny" /> : <PlayRegular />}
          disabled={!client || flow.running}
          onClick={() => void flow.start()}
        >
          {flow.running ? 'Running...' : 'Run Comparison'}
        </Button>
        <Button
          icon={<DocumentBulletListRegular />}
          disabled={!client || flow.configurations.status === 'loading'}
          onClick={() => void flow.viewConfigurations()}
        >
          View Both Configurations
        </Button>
        {(flow.finished || flow.run.status === 'error') && (
          <Button
            icon={<ArrowDownloadRegular />}
            onClick={() => flow.dispatch({ type: 'open', dialog: { open: 'export' } })}
          >
            Export Report
          </Button>
        )}
      </div>
    </Card>
  );
}
