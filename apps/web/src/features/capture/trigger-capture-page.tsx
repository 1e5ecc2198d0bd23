import {
  CAPTURE_MESSAGES,
  DEFAULT_BASELINE_VERSION,
  parseTriggerExclusions,
  type CaptureStatusType,
} from '@aegis/domain';
import {
  Accordion,
  AccordionHeader,
  AccordionItem,
  AccordionPanel,
  Button,
  Card,
  Field,
  Input,
  makeStyles,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  ProgressBar,
  Spinner,
  Text,
  Textarea,
  tokens,
} from '@fluentui/react-components';
import {
  CheckmarkCircleRegular,
  ErrorCircleRegular,
  InfoRegular,
  WarningRegular,
} from '@fluentui/react-icons';
import { useState, type ReactElement } from 'react';
import { useNavigate } from 'react-router';

import { ClientPicker } from '../../components/client-picker';
import { PageHeader } from '../../components/page-header';
import { RoleGate } from '../../components/role-gate';
import { RunLogButton } from '../../components/run-log-dialog';
import { paths } from '../../config/paths';
import { useClients } from '../../lib/clients/use-clients';

import { useCaptureRun } from './hooks/use-capture-run';

const useStyles = makeStyles({
  form: {
    display: 'flex',
    flexDirection: 'column',
    gap: '16px',
    padding: '20px',
    maxWidth: '760px',
  },
  status: { maxWidth: '760px', marginTop: '16px', padding: '16px' },
  statusHead: { display: 'flex', gap: '8px', alignItems: 'center' },
  info: { maxWidth: '760px', marginTop: '16px' },
  branch: { fontFamily: tokens.fontFamilyMonospace },
  actions: { display: 'flex', gap: '8px' },
});

const ICONS: Record<CaptureStatusType, ReactElement> = {
  info: <InfoRegular aria-hidden />,
  success: <CheckmarkCircleRegular aria-hidden color={tokens.colorPaletteGreenForeground1} />,
  error: <ErrorCircleRegular aria-hidden color={tokens.colorPaletteRedForeground1} />,
  warning: <WarningRegular aria-hidden color={tokens.colorPaletteDarkOrangeForeground1} />,
};

/** Trigger Configuration Capture (spec 3 §2, §4, §5, §8): /trigger-capture. */
export function TriggerCapturePage() {
  const styles = useStyles();
  const navigate = useNavigate();
  const clients = useClients();
  const [client, setClient] = useState('');
  const [properties, setProperties] = useState('');
  const [excludedPaths, setExcludedPaths] = useState('');
  const [baselineVersion, setBaselineVersion] = useState(DEFAULT_BASELINE_VERSION);
  const { status, running, trigger, logOf } = useCaptureRun();

  function start(): void {
    // Spec 3 §5: with no client chosen nothing happens.
    if (!client || running) return;
    void trigger(client, {
      excludedProperties: parseTriggerExclusions(properties),
      excludedPaths: parseTriggerExclusions(excludedPaths),
      baselineVersion: baselineVersion.trim() || DEFAULT_BASELINE_VERSION,
    });
  }

  return (
    <>
      <PageHeader
        title="Trigger Configuration Capture"
        subtitle="Snapshot a client tenant's configuration into a branch for review"
      />
      {clients.isError && (
        <MessageBar intent="error" role="alert">
          <MessageBarBody>{CAPTURE_MESSAGES.loadClients(clients.error.message)}</MessageBarBody>
        </MessageBar>
      )}
      <Card className={styles.form}>
        <ClientPicker
          required
          value={client}
          onChange={setClient}
          clients={clients.data?.clients}
          loading={clients.isPending}
          disabled={running}
          // a capture reads the client's tenant
          needs={['tenant']}
        />
        <Accordion collapsible>
          <AccordionItem value="advanced">
            <AccordionHeader>Advanced Options</AccordionHeader>
            <AccordionPanel>
              <Field
                label="Excluded Properties (optional)"
                hint="One per line or comma separated, for example id, createdDateTime, lastModifiedDateTime"
              >
                <Textarea
                  value={properties}
                  rows={4}
                  placeholder={'id\ncreatedDateTime\nlastModifiedDateTime'}
                  onChange={(_, data) => setProperties(data.value)}
                />
              </Field>
              <Field label="Excluded Paths (optional)" hint="One per line, for example {token}">
                <Textarea
                  value={excludedPaths}
                  rows={4}
                  placeholder="{token}"
                  onChange={(_, data) => setExcludedPaths(data.value)}
                />
              </Field>
              <Field label="Baseline Version" hint="Used for metadata tracking">
                <Input
                  value={baselineVersion}
                  onChange={(_, data) => setBaselineVersion(data.value)}
                />
              </Field>
            </AccordionPanel>
          </AccordionItem>
        </Accordion>
        <div className={styles.actions}>
          <RoleGate needs="Operator">
            <Button
              appearance="primary"
              disabled={!client || running}
              onClick={start}
              icon={running ? <Spinner size="tiny" aria-label="Capture running" /> : undefined}
            >
              {running ? 'Capturing...' : 'Trigger Capture'}
            </Button>
          </RoleGate>
        </div>
      </Card>

      {status && (
        <Card className={styles.status} role="status" aria-live="polite">
          <div className={styles.statusHead}>
            {ICONS[status.type]}
            <Text weight="semibold" size={400}>
              {status.title}
            </Text>
          </div>
          <Text>{status.message}</Text>
          {status.reason && <Text>Reason: {status.reason}</Text>}
          <ProgressBar
            value={status.progress / 100}
            color={
              status.type === 'error' ? 'error' : status.type === 'success' ? 'success' : 'brand'
            }
            aria-label="Capture progress"
          />
          <Text size={200}>{status.progress}% Complete</Text>
          {status.type === 'success' && status.branch && (
            <Text>
              Branch: <span className={styles.branch}>{status.branch}</span>
            </Text>
          )}
          {(logOf || (status.type === 'success' && status.branch)) && (
            <div className={styles.actions}>
              {status.type === 'success' && status.branch && (
                <Button
                  appearance="primary"
                  onClick={() =>
                    void navigate(
                      `${paths.captureManagement.getHref(client)}?branch=${encodeURIComponent(status.branch ?? '')}`,
                    )
                  }
                >
                  Go to Review
                </Button>
              )}
              {logOf && <RunLogButton run={logOf} />}
            </div>
          )}
        </Card>
      )}

      <MessageBar intent="info" className={styles.info} layout="multiline">
        <MessageBarBody>
          <MessageBarTitle>How configuration capture works</MessageBarTitle>
          <ol>
            <li>Capture: the pipeline reads the client tenant&apos;s current configuration.</li>
            <li>
              Branch creation: the snapshot is committed to a branch named
              client-&#123;CODE&#125;-capture-&#123;timestamp&#125;.
            </li>
            <li>Review: staff review the changes and deviations in Capture Management.</li>
            <li>Merge to main: an approved capture becomes a pull request to main.</li>
          </ol>
        </MessageBarBody>
      </MessageBar>
    </>
  );
}
