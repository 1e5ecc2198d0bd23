import { detectPolicyKind, displayValue, textOf } from '@aegis/domain';
import {
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
  Spinner,
  Tab,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  TabList,
  Text,
  tokens,
} from '@fluentui/react-components';
import { CopyRegular } from '@fluentui/react-icons';
import { useState } from 'react';

import { usePolicyFiles } from '../api/comparison-api';
import type { ViewPolicy } from '../utils/view-model';

const useStyles = makeStyles({
  surface: { maxWidth: '900px', width: '90vw' },
  body: { minHeight: '360px', display: 'flex', flexDirection: 'column', gap: '12px' },
  overview: { display: 'grid', gridTemplateColumns: '140px 1fr', gap: '8px 16px' },
  term: { color: tokens.colorNeutralForeground3, fontWeight: tokens.fontWeightSemibold },
  path: {
    fontFamily: tokens.fontFamilyMonospace,
    padding: 0,
    minWidth: 0,
    justifyContent: 'flex-start',
    textAlign: 'left',
    wordBreak: 'break-all',
    height: 'auto',
  },
  pre: {
    margin: 0,
    padding: '12px',
    maxHeight: '50vh',
    overflow: 'auto',
    backgroundColor: tokens.colorNeutralBackground3,
    borderRadius: tokens.borderRadiusMedium,
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
  },
  rawBar: {
    display: 'flex',
    justifyContent: 'space-between',
    alignItems: 'center',
    gap: '12px',
    marginBottom: '8px',
  },
  rawSource: { display: 'flex', alignItems: 'baseline', gap: '6px', flexWrap: 'wrap', minWidth: 0 },
  copyButton: { flexShrink: 0, whiteSpace: 'nowrap' },
});

type TabId = 'overview' | 'settings' | 'raw';

/** Config detail of spec 1 §3: description, category, path, impact, type and settings. */
export interface ConfigDetail {
  description: string;
  category: string;
  path: string;
  impact: string;
  type: string;
  settings: { name: string; value: string; rawProperty: string; description: string }[];
}

function lastSegment(path: string): string {
  const parts = path.split('.');
  return parts[parts.length - 1] || path;
}

function detailOf(policy: ViewPolicy, content: unknown): ConfigDetail {
  const failing = policy.rows.filter((r) => !r.pass).length;
  const ownDescription =
    content && typeof content === 'object' && 'description' in content
      ? textOf(content.description ?? '')
      : '';
  if (policy.check) {
    const c = policy.check;
    return {
      description: c.description || c.title,
      category: policy.category,
      path: policy.path ?? '',
      impact: `${c.severity[0]?.toUpperCase()}${c.severity.slice(1)}${c.pass ? '' : ' – failing'}`,
      type: `Standard check ${c.id} (${c.controlReference})`,
      settings: [
        {
          name: c.title,
          value: c.current,
          rawProperty: c.id,
          description: c.rationale,
        },
      ],
    };
  }
  return {
    description: ownDescription || `Company baseline policy ${policy.name}`,
    category: policy.category,
    path: policy.path ?? policy.name,
    impact:
      failing === 0
        ? 'No deviations from the baseline'
        : `${failing} of ${policy.rows.length} settings differ from the baseline`,
    type: content ? detectPolicyKind(content) : 'Unknown',
    settings: policy.rows.map((r) => ({
      name: lastSegment(r.setting),
      value: displayValue(r.current),
      rawProperty: r.setting,
      description: r.description,
    })),
  };
}

async function copy(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** A file path that copies itself when clicked (spec 1 §2). */
function CopyPath({ path, onCopy }: { path: string; onCopy: (path: string) => void }) {
  const styles = useStyles();
  return (
    <Button
      appearance="transparent"
      className={styles.path}
      title="Click to copy the path"
      aria-label={`Path ${path} (click to copy)`}
      onClick={() => onCopy(path)}
    >
      {path}
    </Button>
  );
}

/** The configuration info modal: Overview, Settings Details and Raw Configuration (spec 1 §2). */
export function ConfigInfoDialog({
  client,
  policy,
  onClose,
}: {
  client: string;
  policy: ViewPolicy | undefined;
  onClose: () => void;
}) {
  const styles = useStyles();
  const [tab, setTab] = useState<TabId>('overview');
  const [copied, setCopied] = useState<string | undefined>();
  const files = usePolicyFiles(client, policy?.path);
  const clientFile = files.data?.clientConfiguration;
  const baselineFile = files.data?.baseline;
  const rawFile = clientFile ?? baselineFile;
  const raw = rawFile
    ? (rawFile.text ?? JSON.stringify(rawFile.content, null, 2))
    : policy?.check
      ? JSON.stringify(policy.check, null, 2)
      : '';
  const detail = policy ? detailOf(policy, rawFile?.content) : undefined;

  const copyAndSay = async (text: string, what: string) => {
    setCopied((await copy(text)) ? what : 'Copy failed: the browser refused the clipboard.');
  };
  const copyPath = (path: string) => void copyAndSay(path, 'Path copied to clipboard');

  return (
    <Dialog
      open={Boolean(policy)}
      onOpenChange={(_e, data) => {
        if (!data.open) {
          setTab('overview');
          setCopied(undefined);
          onClose();
        }
      }}
    >
      <DialogSurface className={styles.surface}>
        <DialogBody>
          <DialogTitle>{policy?.name}</DialogTitle>
          <DialogContent className={styles.body}>
            <TabList
              selectedValue={tab}
              onTabSelect={(_e, data) => setTab(data.value as TabId)}
              aria-label="Configuration information"
            >
              <Tab value="overview">Overview</Tab>
              <Tab value="settings">Settings Details</Tab>
              <Tab value="raw">Raw Configuration</Tab>
            </TabList>
            {copied && (
              <MessageBar intent={copied.startsWith('Copy failed') ? 'error' : 'success'}>
                <MessageBarBody>{copied}</MessageBarBody>
              </MessageBar>
            )}
            {detail && tab === 'overview' && (
              <dl className={styles.overview} role="tabpanel" aria-label="Overview">
                <dt className={styles.term}>Description</dt>
                <dd style={{ margin: 0 }}>{detail.description}</dd>
                <dt className={styles.term}>Category</dt>
                <dd style={{ margin: 0 }}>{detail.category}</dd>
                <dt className={styles.term}>Path</dt>
                <dd style={{ margin: 0 }}>
                  {detail.path ? (
                    <CopyPath path={detail.path} onCopy={copyPath} />
                  ) : (
                    <Text>No configuration file was evaluated</Text>
                  )}
                </dd>
                <dt className={styles.term}>Impact</dt>
                <dd style={{ margin: 0 }}>{detail.impact}</dd>
                <dt className={styles.term}>Type</dt>
                <dd style={{ margin: 0 }}>{detail.type}</dd>
              </dl>
            )}
            {detail && tab === 'settings' && (
              <div
                role="tabpanel"
                aria-label="Settings Details"
                style={{ overflow: 'auto', maxHeight: '50vh' }}
              >
                <Table size="small" aria-label="Settings">
                  <TableHeader>
                    <TableRow>
                      <TableHeaderCell>Name</TableHeaderCell>
                      <TableHeaderCell>Value</TableHeaderCell>
                      <TableHeaderCell>Raw Property</TableHeaderCell>
                      <TableHeaderCell>Description</TableHeaderCell>
                    </TableRow>
                  </TableHeader>
                  <TableBody>
                    {detail.settings.map((s, i) => (
                      <TableRow key={`${s.rawProperty}-${i}`}>
                        <TableCell>{s.name}</TableCell>
                        <TableCell>{s.value}</TableCell>
                        <TableCell>
                          <code>{s.rawProperty}</code>
                        </TableCell>
                        <TableCell>{s.description}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </div>
            )}
            {tab === 'raw' && (
              <div role="tabpanel" aria-label="Raw Configuration">
                <div className={styles.rawBar}>
                  <div className={styles.rawSource}>
                    <Text size={200}>
                      {clientFile
                        ? 'Client configuration:'
                        : baselineFile
                          ? 'Baseline configuration:'
                          : 'Check result'}
                    </Text>
                    {rawFile && <CopyPath path={rawFile.path} onCopy={copyPath} />}
                  </div>
                  <Button
                    className={styles.copyButton}
                    icon={<CopyRegular />}
                    disabled={!raw}
                    onClick={() => void copyAndSay(raw, 'Configuration copied to clipboard')}
                  >
                    Copy to Clipboard
                  </Button>
                </div>
                {files.isLoading && <Spinner size="small" label="Loading configuration..." />}
                {files.isError && (
                  <MessageBar intent="error">
                    <MessageBarBody>{files.error.message}</MessageBarBody>
                  </MessageBar>
                )}
                <pre
                  className={styles.pre}
                  role="region"
                  aria-label="Raw configuration JSON"
                  tabIndex={0}
                >
                  {raw}
                </pre>
              </div>
            )}
          </DialogContent>
          <DialogActions>
            <Button appearance="primary" onClick={onClose}>
              Close
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
