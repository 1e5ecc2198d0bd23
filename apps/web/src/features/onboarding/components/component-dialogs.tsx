import {
  BASELINE_COMPONENTS,
  deployDependencies,
  deployEstimateSeconds,
  formatDeployDuration,
  shortenPreviewPath,
  type BaselineComponent,
} from '@aegis/domain';
import {
  Badge,
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  makeStyles,
  MessageBar,
  MessageBarBody,
  ProgressBar,
  Tab,
  TabList,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  tokens,
} from '@fluentui/react-components';
import { useState } from 'react';

import { useConfigPreview } from '../hooks/use-config-preview';

const useStyles = makeStyles({
  body: { display: 'grid', gap: '12px' },
  facts: {
    display: 'grid',
    gridTemplateColumns: 'max-content 1fr',
    columnGap: '16px',
    rowGap: '6px',
    margin: 0,
  },
  term: { fontWeight: tokens.fontWeightSemibold },
  value: { margin: 0 },
  file: { display: 'grid', gap: '4px', marginBottom: '12px' },
  raw: {
    maxHeight: '320px',
    overflow: 'auto',
    backgroundColor: tokens.colorNeutralBackground3,
    padding: '8px',
    fontSize: tokens.fontSizeBase200,
    margin: 0,
  },
  surface: { maxWidth: '820px', width: '90vw' },
});

const IMPACT_COLOUR = { High: 'danger', Medium: 'warning', Low: 'success' } as const;

export function ImpactBadge({ impact }: { impact: BaselineComponent['impact'] }) {
  return (
    <Badge appearance="tint" color={IMPACT_COLOUR[impact]}>
      {impact}
    </Badge>
  );
}

/** Spec 2 §3 deploy component info: name, description, impact level, estimated time, dependencies. */
export function ComponentInfoDialog({
  name,
  onClose,
  onShowConfiguration,
}: {
  name: string | undefined;
  onClose: () => void;
  onShowConfiguration: (name: string) => void;
}) {
  const styles = useStyles();
  const component = name ? BASELINE_COMPONENTS[name] : undefined;
  return (
    <Dialog open={!!component} onOpenChange={(_e, data) => (data.open ? undefined : onClose())}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{name}</DialogTitle>
          <DialogContent className={styles.body}>
            {component && name ? (
              <dl className={styles.facts}>
                <dt className={styles.term}>Description</dt>
                <dd className={styles.value}>{component.description}</dd>
                <dt className={styles.term}>Impact level</dt>
                <dd className={styles.value}>
                  <ImpactBadge impact={component.impact} />
                </dd>
                <dt className={styles.term}>Estimated time</dt>
                <dd className={styles.value}>
                  {formatDeployDuration(deployEstimateSeconds(name))}
                </dd>
                <dt className={styles.term}>Dependencies</dt>
                <dd className={styles.value}>{deployDependencies(name) ?? 'None'}</dd>
              </dl>
            ) : null}
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>Close</Button>
            {name ? (
              <Button appearance="primary" onClick={() => onShowConfiguration(name)}>
                View configuration
              </Button>
            ) : null}
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

type ConfigTab = 'overview' | 'settings' | 'raw';

/**
 * Spec 2 §2: the configuration info modal, tabs Overview, Settings Details and Raw Configuration
 * (copy to clipboard; clicking the path copies it), loaded from the repository (spec 2 §4, §9).
 */
export function ConfigInfoDialog({
  name,
  onClose,
}: {
  name: string | undefined;
  onClose: () => void;
}) {
  const styles = useStyles();
  const component = name ? BASELINE_COMPONENTS[name] : undefined;
  const [tab, setTab] = useState<ConfigTab>('overview');
  const [copied, setCopied] = useState<string | undefined>();
  const preview = useConfigPreview(component);
  const raw = JSON.stringify(
    Object.fromEntries(
      preview.files.filter((f) => f.status === 'loaded').map((f) => [f.path, f.content]),
    ),
    null,
    2,
  );
  const copy = async (text: string, what: string) => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(`${what} copied to clipboard.`);
    } catch {
      setCopied(`Could not copy the ${what.toLowerCase()}.`);
    }
  };
  const close = () => {
    setTab('overview');
    setCopied(undefined);
    onClose();
  };

  return (
    <Dialog open={!!component} onOpenChange={(_e, data) => (data.open ? undefined : close())}>
      <DialogSurface className={styles.surface}>
        <DialogBody>
          <DialogTitle>{name} configuration</DialogTitle>
          <DialogContent className={styles.body}>
            <TabList
              selectedValue={tab}
              onTabSelect={(_e, data) => setTab(data.value as ConfigTab)}
              aria-label="Configuration details"
            >
              <Tab value="overview">Overview</Tab>
              <Tab value="settings">Settings Details</Tab>
              <Tab value="raw">Raw Configuration</Tab>
            </TabList>
            {preview.loading ? (
              <ProgressBar
                value={preview.progress / 100}
                aria-label={`Loading configuration ${preview.progress}%`}
              />
            ) : null}
            {preview.error ? (
              <MessageBar intent="error" role="alert">
                <MessageBarBody>{preview.error}</MessageBarBody>
              </MessageBar>
            ) : null}
            {copied ? (
              <Text role="status" size={200}>
                {copied}
              </Text>
            ) : null}
            {component && tab === 'overview' ? (
              <dl className={styles.facts}>
                <dt className={styles.term}>Description</dt>
                <dd className={styles.value}>{component.description}</dd>
                <dt className={styles.term}>Category</dt>
                <dd className={styles.value}>{component.category}</dd>
                <dt className={styles.term}>Path</dt>
                <dd className={styles.value}>
                  {component.paths.length === 0 ? (
                    <Text>None: the pipeline runs {component.functionName}</Text>
                  ) : (
                    component.paths.map((p) => (
                      <div key={p}>
                        <Button
                          appearance="transparent"
                          size="small"
                          title={`${p} (click to copy)`}
                          onClick={() => void copy(p, 'Path')}
                        >
                          {shortenPreviewPath(p)}
                        </Button>
                      </div>
                    ))
                  )}
                </dd>
                <dt className={styles.term}>Impact</dt>
                <dd className={styles.value}>
                  <ImpactBadge impact={component.impact} />
                </dd>
                <dt className={styles.term}>Type</dt>
                <dd className={styles.value}>
                  {component.type}
                  {component.command ? ` (${component.command})` : ''}
                </dd>
              </dl>
            ) : null}
            {tab === 'settings' ? (
              preview.files.length === 0 && !preview.loading ? (
                <Text>No settings to show.</Text>
              ) : (
                preview.files.map((file) => (
                  <section key={file.path} className={styles.file} aria-label={file.name}>
                    <Text weight="semibold">{file.name}</Text>
                    {file.status === 'failed' ? (
                      <Text>Failed to load</Text>
                    ) : (
                      <Table size="small" aria-label={`${file.name} settings`}>
                        <TableHeader>
                          <TableRow>
                            <TableHeaderCell>Setting</TableHeaderCell>
                            <TableHeaderCell>Value</TableHeaderCell>
                            <TableHeaderCell>Description</TableHeaderCell>
                          </TableRow>
                        </TableHeader>
                        <TableBody>
                          {file.settings.map((s) => (
                            <TableRow key={s.rawProperty}>
                              <TableCell title={s.rawProperty}>{s.name}</TableCell>
                              <TableCell>{s.value}</TableCell>
                              <TableCell>{s.description}</TableCell>
                            </TableRow>
                          ))}
                        </TableBody>
                      </Table>
                    )}
                    {file.more ? (
                      <Text size={200}>
                        and {file.more} more file{file.more === 1 ? '' : 's'} in this folder
                      </Text>
                    ) : null}
                  </section>
                ))
              )
            ) : null}
            {tab === 'raw' ? (
              <>
                <div>
                  <Button onClick={() => void copy(raw, 'Configuration')}>Copy to clipboard</Button>
                </div>
                {/* a scrollable region must be reachable by keyboard (axe scrollable-region-focusable) */}
                {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex */}
                <pre className={styles.raw} tabIndex={0} aria-label="Raw configuration">
                  {raw}
                </pre>
              </>
            ) : null}
          </DialogContent>
          <DialogActions>
            <Button onClick={close}>Close</Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
