import type { ComparisonBaselineType, ComparisonResult, Configurations } from '@aegis/contracts';
import {
  complianceBand,
  formatSummaryPercentage,
  makesCapturePartial,
  passRateIcon,
} from '@aegis/domain';
import {
  Button,
  Card,
  Field,
  makeStyles,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  mergeClasses,
  ProgressBar,
  Radio,
  RadioGroup,
  SearchBox,
  Spinner,
  Switch,
  Tab,
  TabList,
  Text,
  tokens,
} from '@fluentui/react-components';
import {
  ArrowDownloadRegular,
  CheckmarkCircleFilled,
  DismissCircleFilled,
  DocumentBulletListRegular,
  PlayRegular,
  WarningFilled,
} from '@fluentui/react-icons';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';

import { ClientPicker } from '../../components/client-picker';
import { NotCapturedNotice } from '../../components/not-captured-notice';
import { useClients } from '../../lib/clients/use-clients';
import { usePageTitle } from '../../lib/use-page-title';
import { useStagedProgress } from '../../lib/use-staged-progress';

import { loadConfigurations, runComparison } from './api/comparison-api';
import { AreaDetailsDialog } from './components/area-details-dialog';
import { BAND_COLOURS, ComplianceChart } from './components/compliance-chart';
import { ConfigInfoDialog } from './components/config-info-dialog';
import { ConfigurationsViewer } from './components/configurations-viewer';
import { ExportReportDialog } from './components/export-report-dialog';
import { ResultsList } from './components/results-list';
import {
  readComparisonAddress,
  writeComparisonAddress,
  type ComparisonAddress,
} from './utils/address';
import {
  BASELINE_LABELS,
  filterCategories,
  progressMessage,
  toView,
  type ResultFilter,
  type ViewCategory,
  type ViewPolicy,
} from './utils/view-model';

export const COMPARISON_TITLE = 'Microsoft 365 Configuration Compliance Assessment';
export const OPTIONS_HEADING = 'Options - Aegis';
export const STANDARD_NOTE =
  'The CIS Standard Baseline shows general security best practices (70 checks drawn from CIS, Maester and CISA SCuBA). It is not your company baseline: choose Options Baseline to compare the client with it.';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: '16px' },
  variantHeading: { color: tokens.colorBrandForeground1, margin: 0 },
  subtitle: { color: tokens.colorNeutralForeground3 },
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
  progress: { padding: '16px', display: 'flex', flexDirection: 'column', gap: '8px' },
  progressText: { display: 'flex', justifyContent: 'space-between' },
  tiles: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(180px, 1fr))',
    gap: '12px',
  },
  tile: { padding: '16px', display: 'flex', flexDirection: 'column', gap: '4px' },
  big: { fontSize: tokens.fontSizeHero800, fontWeight: tokens.fontWeightSemibold, lineHeight: 1.1 },
  areas: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(230px, 1fr))',
    gap: '12px',
  },
  area: { padding: '12px 16px', display: 'flex', flexDirection: 'column', gap: '6px' },
  areaHead: { display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: '8px' },
  section: { padding: '16px', display: 'flex', flexDirection: 'column', gap: '12px' },
  heading: { margin: 0 },
  toolbar: { display: 'flex', gap: '12px', alignItems: 'center', flexWrap: 'wrap' },
  grow: { flexGrow: 1 },
  pass: { color: tokens.colorPaletteGreenForeground1 },
  fail: { color: tokens.colorPaletteRedForeground1 },
  warn: { color: tokens.colorStatusWarningForeground3 },
  empty: { padding: '32px', textAlign: 'center' },
});

type RunState =
  | { status: 'idle' }
  | { status: 'running' }
  | { status: 'done'; result: ComparisonResult }
  | { status: 'error'; message: string };

type ViewState =
  | { status: 'idle' }
  | { status: 'loading'; percent: number }
  | { status: 'done'; configurations: Configurations }
  | { status: 'error'; message: string };

function ScoreIcon({ percentage }: { percentage: number }) {
  const styles = useStyles();
  const icon = passRateIcon(percentage);
  if (icon === 'tick') return <CheckmarkCircleFilled className={styles.pass} aria-label="Good" />;
  if (icon === 'warning') return <WarningFilled className={styles.warn} aria-label="Warning" />;
  return <DismissCircleFilled className={styles.fail} aria-label="Poor" />;
}

function ProgressPanel({ percent, label }: { percent: number; label: string }) {
  const styles = useStyles();
  return (
    <Card className={styles.progress} role="status" aria-label={label}>
      <div className={styles.progressText}>
        <Text weight="semibold">{progressMessage(percent)}</Text>
        <Text>{percent}%</Text>
      </div>
      <ProgressBar
        value={percent / 100}
        thickness="large"
        aria-label={`${label} progress`}
        color={percent >= 100 ? 'success' : 'brand'}
      />
    </Card>
  );
}

/**
 * Configuration Comparison (spec 1 §2): choose a client and a baseline, run the comparison on the
 * server with streamed progress, then explore, filter and export the results. `variant` 'options'
 * is the tenant-baseline-options heading variant.
 */
export function ComparisonPage({ variant = 'comparison' }: { variant?: 'comparison' | 'options' }) {
  const styles = useStyles();
  usePageTitle(variant === 'options' ? OPTIONS_HEADING : COMPARISON_TITLE);
  const clients = useClients();
  // The selection, the run and the filters live in the address (ADR 055): a reload, Back or a
  // shared link runs the same comparison again. The controls answer from state at once; the
  // address follows, replacing its entry so typing stays out of the history.
  const defaultBaselineType: ComparisonBaselineType =
    variant === 'options' ? 'options' : 'standard';
  const [params, setParams] = useSearchParams();
  const [address, setAddressState] = useState(() =>
    readComparisonAddress(params, defaultBaselineType),
  );
  const { client, baselineType, filter, onlyFails, search } = address;
  const setAddress = (change: Partial<ComparisonAddress>) =>
    setAddressState((current) => ({ ...current, ...change }));
  useEffect(() => {
    const next = writeComparisonAddress(params, address, defaultBaselineType);
    if (next.toString() !== params.toString()) setParams(next, { replace: true });
  }, [address, params, setParams, defaultBaselineType]);
  const [run, setRun] = useState<RunState>({ status: 'idle' });
  const [viewState, setViewState] = useState<ViewState>({ status: 'idle' });
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [areaDetails, setAreaDetails] = useState<ViewCategory | undefined>();
  const [info, setInfo] = useState<ViewPolicy | undefined>();
  const [exportOpen, setExportOpen] = useState(false);
  const abort = useRef<AbortController | undefined>(undefined);
  const bothPanel = useRef<HTMLDivElement>(null);

  useEffect(() => () => abort.current?.abort(), []);

  const progress = useStagedProgress(progressMessage);
  // The results show once the bar has played every stage the server reported, up to Complete!.
  const finished = run.status === 'done' && progress.settled;
  const running = run.status === 'running' || (run.status === 'done' && !progress.settled);
  const result = finished ? run.result : undefined;
  const view = useMemo(() => (result ? toView(result) : undefined), [result]);
  const shown = useMemo(
    () => (view ? filterCategories(view.categories, { filter, onlyFails, search }) : []),
    [view, filter, onlyFails, search],
  );

  const start = async () => {
    if (!client || running) return;
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setRun({ status: 'running' });
    setAddress({ run: true });
    progress.reset(0);
    setExpanded(new Set());
    try {
      const outcome = await runComparison(
        { client, baselineType },
        progress.report,
        controller.signal,
      );
      progress.report(100);
      setRun({ status: 'done', result: outcome });
    } catch (error) {
      if (controller.signal.aborted) return;
      setRun({ status: 'error', message: (error as Error).message });
    }
  };

  // An address that says the comparison was run shows its results again on arrival (leaving
  // the page aborts it, as any run).
  useEffect(() => {
    if (address.run) void start();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- on arrival only
  }, []);

  /** A new selection: the results shown were for the old one. */
  const select = (change: Pick<Partial<ComparisonAddress>, 'client' | 'baselineType'>) => {
    abort.current?.abort();
    setRun({ status: 'idle' });
    setAddress({ ...change, run: false });
  };

  const viewConfigurations = async () => {
    if (!client) return;
    setViewState({ status: 'loading', percent: 0 });
    try {
      const configurations = await loadConfigurations(client, (percent) =>
        setViewState({ status: 'loading', percent }),
      );
      setViewState({ status: 'done', configurations });
      // The panel opens below the results: bring it into view, or the click seems to do nothing.
      requestAnimationFrame(() =>
        bothPanel.current?.scrollIntoView?.({ behavior: 'smooth', block: 'start' }),
      );
    } catch (error) {
      setViewState({ status: 'error', message: (error as Error).message });
    }
  };

  const toggle = (category: string) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (next.has(category)) next.delete(category);
      else next.add(category);
      return next;
    });

  const band = view ? complianceBand(view.score) : undefined;

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

      <Card className={styles.controls}>
        <ClientPicker
          className={styles.select}
          value={client}
          onChange={(code) => {
            select({ client: code });
            setViewState({ status: 'idle' });
          }}
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
            onChange={(_e, data) => select({ baselineType: data.value as ComparisonBaselineType })}
          >
            <Radio value="standard" label={BASELINE_LABELS.standard} />
            <Radio value="options" label={BASELINE_LABELS.options} />
          </RadioGroup>
        </Field>
        <div className={styles.actions}>
          <Button
            appearance="primary"
            icon={running ? <Spinner size="extra-tiny" /> : <PlayRegular />}
            disabled={!client || running}
            onClick={() => void start()}
          >
            {running ? 'Running...' : 'Run Comparison'}
          </Button>
          <Button
            icon={<DocumentBulletListRegular />}
            disabled={!client || viewState.status === 'loading'}
            onClick={() => void viewConfigurations()}
          >
            View Both Configurations
          </Button>
          {(finished || run.status === 'error') && (
            <Button icon={<ArrowDownloadRegular />} onClick={() => setExportOpen(true)}>
              Export Report
            </Button>
          )}
        </div>
      </Card>

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

      {baselineType === 'standard' && (
        <MessageBar intent="info" layout="multiline">
          <MessageBarBody>
            <MessageBarTitle>Note</MessageBarTitle>
            {STANDARD_NOTE}
          </MessageBarBody>
        </MessageBar>
      )}

      {run.status === 'idle' && (
        <Card className={styles.empty}>
          <Text>
            Choose a client and a baseline type, then select Run Comparison to assess the client's
            configuration.
          </Text>
        </Card>
      )}
      {(running || finished) && <ProgressPanel percent={progress.percent} label="Comparison" />}
      {run.status === 'error' && (
        <MessageBar intent="error" layout="multiline">
          <MessageBarBody>
            <MessageBarTitle>Comparison failed</MessageBarTitle>
            <div>{run.message}</div>
          </MessageBarBody>
        </MessageBar>
      )}

      {view && band && (
        <>
          {view.warnings.length > 0 && (
            <MessageBar intent="warning" layout="multiline">
              <MessageBarBody>
                {view.warnings.map((w) => (
                  <div key={w}>{w}</div>
                ))}
              </MessageBarBody>
            </MessageBar>
          )}
          {result && (
            <NotCapturedNotice
              workloads={result.notCaptured}
              partial={result.notCaptured.some(makesCapturePartial)}
            />
          )}
          <Text as="h2" size={600} weight="semibold" className={styles.heading}>
            Results for {view.client} – {BASELINE_LABELS[view.baselineType]}
          </Text>
          <div className={styles.tiles}>
            <Card className={styles.tile} aria-label="Overall score">
              <Text>Overall Score</Text>
              <Text className={styles.big} style={{ color: BAND_COLOURS[band.colour] }}>
                <ScoreIcon percentage={view.score} /> {formatSummaryPercentage(view.score)}
              </Text>
              <Text size={200}>{band.band[0]?.toUpperCase() + band.band.slice(1)}</Text>
            </Card>
            <Card className={styles.tile} aria-label="Total passes">
              <Text>Total Passes</Text>
              <Text className={mergeClasses(styles.big, styles.pass)}>{view.passed}</Text>
            </Card>
            <Card className={styles.tile} aria-label="Total fails">
              <Text>Total Fails</Text>
              <Text className={mergeClasses(styles.big, styles.fail)}>{view.failed}</Text>
            </Card>
          </div>

          <Card className={styles.section}>
            <Text as="h3" size={500} weight="semibold" className={styles.heading}>
              Compliance by area
            </Text>
            <ComplianceChart categories={view.categories} />
          </Card>

          <div className={styles.areas}>
            {view.categories.map((c) => (
              <Card key={c.name} className={styles.area} aria-label={`${c.name} area`}>
                <div className={styles.areaHead}>
                  <Text weight="semibold">{c.name}</Text>
                  <Text weight="semibold">{formatSummaryPercentage(c.percentage)}</Text>
                </div>
                <Text size={200}>
                  <span className={styles.pass}>{c.passing} passing</span> ·{' '}
                  <span className={styles.fail}>{c.failing} failing</span>
                </Text>
                <Text
                  size={200}
                  weight="semibold"
                  className={
                    c.status === 'All Pass'
                      ? styles.pass
                      : c.status === 'Mixed'
                        ? styles.warn
                        : styles.fail
                  }
                >
                  {c.status}
                </Text>
                <Button
                  size="small"
                  onClick={() => setAreaDetails(c)}
                  aria-label={`View Details for ${c.name}`}
                >
                  View Details
                </Button>
              </Card>
            ))}
          </div>

          <Card className={styles.section}>
            <div className={styles.toolbar}>
              <Switch
                checked={onlyFails}
                onChange={(_e, data) => setAddress({ onlyFails: data.checked })}
                label={onlyFails ? 'Show Only Fails' : 'Show All Results'}
              />
              <TabList
                size="small"
                selectedValue={filter}
                onTabSelect={(_e, data) => setAddress({ filter: data.value as ResultFilter })}
                aria-label="Filter results"
              >
                <Tab value="all">All</Tab>
                <Tab value="passed">Passed</Tab>
                <Tab value="failed">Failed</Tab>
              </TabList>
              <SearchBox
                className={styles.grow}
                placeholder="Search categories"
                aria-label="Search categories"
                value={search}
                onChange={(_e, data) => setAddress({ search: data.value })}
              />
              <Button onClick={() => setExpanded(new Set(shown.map((c) => c.name)))}>
                Expand All
              </Button>
              <Button onClick={() => setExpanded(new Set())}>Collapse All</Button>
            </div>
            {shown.length === 0 ? (
              <Text className={styles.empty} role="status">
                No results match the current filters.
              </Text>
            ) : (
              <ResultsList
                categories={shown}
                expanded={expanded}
                onToggle={toggle}
                onInfo={setInfo}
              />
            )}
          </Card>
        </>
      )}

      {viewState.status === 'loading' && (
        <ProgressPanel percent={viewState.percent} label="Configurations" />
      )}
      {viewState.status === 'error' && (
        <MessageBar intent="error">
          <MessageBarBody>{viewState.message}</MessageBarBody>
        </MessageBar>
      )}
      {viewState.status === 'done' && (
        <Card className={styles.section} ref={bothPanel}>
          <Text as="h3" size={500} weight="semibold" className={styles.heading}>
            Both configurations
          </Text>
          <ConfigurationsViewer configurations={viewState.configurations} />
        </Card>
      )}

      <AreaDetailsDialog category={areaDetails} onClose={() => setAreaDetails(undefined)} />
      <ConfigInfoDialog
        key={info?.key}
        client={result?.client ?? client}
        policy={info}
        onClose={() => setInfo(undefined)}
      />
      <ExportReportDialog open={exportOpen} result={result} onClose={() => setExportOpen(false)} />
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
