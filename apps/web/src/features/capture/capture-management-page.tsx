import { managementRelativeDate } from '@aegis/domain';
import {
  Card,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Spinner,
  Tab,
  TabList,
  Text,
  tokens,
} from '@fluentui/react-components';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, type ReactNode } from 'react';
import { Link as RouterLink, useNavigate, useParams, useSearchParams } from 'react-router';

import { ClientPicker } from '../../components/client-picker';
import { useNotify, type Notice } from '../../components/notifier';
import { PageHeader } from '../../components/page-header';
import { ResultBar } from '../../components/result-bar';
import { paths } from '../../config/paths';
import { useClients } from '../../lib/clients/use-clients';
import { useBrowserSession } from '../../lib/session';

import { useCaptureBranches, useCaptureOverview } from './api/capture-api';
import { CaptureSelector } from './components/capture-selector';
import { ReviewWorkflow } from './components/review-workflow';

/** Spec 3 §9: toasts hide after 4 seconds in capture management. */
const TOAST_TIMEOUT_MS = 4000;

const useStyles = makeStyles({
  toolbar: { padding: '16px', marginBottom: '16px' },
  client: { maxWidth: '320px' },
  overview: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(200px, 1fr))',
    gap: '12px',
    marginBottom: '16px',
  },
  stat: { padding: '16px' },
  statValue: { fontSize: tokens.fontSizeBase500, fontWeight: tokens.fontWeightSemibold },
  empty: { padding: '48px', textAlign: 'center', color: tokens.colorNeutralForeground3 },
  layout: {
    display: 'grid',
    gridTemplateColumns: 'minmax(280px, 360px) minmax(0, 1fr)',
    gap: '24px',
    marginTop: '16px',
    '@media (max-width: 1000px)': { gridTemplateColumns: 'minmax(0, 1fr)' },
  },
  tabPanel: { marginTop: '16px' },
});

export interface CaptureManagementPageProps {
  /**
   * The Baseline Compliance tab's content for a client (its own feature, composed by the app's
   * route): without it the tab says the report is not available in this build.
   */
  renderBaseline?: (client: string) => ReactNode;
}

/** Capture management (spec 3 §2): /capture-management and /capture-management/{clientCode}. */
export function CaptureManagementPage({ renderBaseline }: CaptureManagementPageProps) {
  const styles = useStyles();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { clientCode } = useParams();
  const [search, setSearch] = useSearchParams();
  const session = useBrowserSession();
  const notify = useNotify();
  const client = clientCode?.toUpperCase();
  const view = search.get('view') === 'baseline' ? 'baseline' : 'captures';
  const selectedBranch = view === 'captures' ? (search.get('branch') ?? undefined) : undefined;

  const clients = useClients();
  const overview = useCaptureOverview(client);
  const branches = useCaptureBranches(client);
  const autoSelected = useRef<string | undefined>(undefined);

  const toast = useCallback(
    (intent: Notice['intent'], title: string) =>
      notify({ intent, title, timeoutInMs: TOAST_TIMEOUT_MS }),
    [notify],
  );

  useEffect(() => {
    if (clients.isError) toast('error', 'Failed to load clients');
  }, [clients.isError, toast]);
  useEffect(() => {
    if (overview.isError) toast('error', 'Failed to load client data');
  }, [overview.isError, toast]);
  useEffect(() => {
    if (branches.isError) toast('error', 'Failed to load capture branches');
  }, [branches.isError, toast]);

  // Spec 3 §2: the first unmerged capture branch is auto-selected (once per client).
  const list = branches.data?.client === client ? branches.data?.branches : undefined;
  useEffect(() => {
    if (!client || view !== 'captures' || !list || autoSelected.current === client) return;
    autoSelected.current = client;
    if (selectedBranch) return;
    const first = [...list]
      .filter((b) => !b.merged)
      .sort((a, b) => Date.parse(b.date ?? '') - Date.parse(a.date ?? ''))[0];
    if (first) setSearch({ branch: first.name }, { replace: true });
  }, [client, view, list, selectedBranch, setSearch]);

  function chooseClient(code: string): void {
    autoSelected.current = undefined;
    void navigate(code ? paths.captureManagement.getHref(code) : paths.captureManagement.getHref());
  }

  function chooseView(next: string): void {
    // switching to baseline clears the selected branch
    setSearch(next === 'baseline' ? { view: 'baseline' } : {});
  }

  function reload(): void {
    void queryClient.invalidateQueries({ queryKey: ['capture', client, 'branches'] });
    void queryClient.invalidateQueries({ queryKey: ['capture', client, 'overview'] });
  }

  const branch = list?.find((b) => b.name === selectedBranch);
  const now = new Date();
  const loading = Boolean(client) && (overview.isPending || branches.isPending);

  return (
    <>
      <PageHeader
        title="Capture Management"
        subtitle="Review and approve automated configuration captures"
      />
      <Card className={styles.toolbar}>
        <ClientPicker
          className={styles.client}
          value={client ?? ''}
          onChange={chooseClient}
          clients={clients.data?.clients}
          loading={clients.isPending}
          error={clients.error}
          onRetry={() => void clients.refetch()}
        />
      </Card>

      {!client && (
        <div className={styles.empty}>
          <Text as="h2" size={500} weight="semibold" block>
            Select a Client to Begin
          </Text>
          <Text>Choose a client to see its captures and baseline compliance.</Text>
        </div>
      )}

      {client && loading && <Spinner label="Loading client data..." />}

      {client && !loading && (
        <>
          <div className={styles.overview} aria-label="Client overview">
            <Card className={styles.stat}>
              <Text size={200}>Last Capture</Text>
              <span className={styles.statValue}>
                {managementRelativeDate(overview.data?.lastCapture, now)}
              </span>
            </Card>
            <Card className={styles.stat}>
              <Text size={200}>Last Merge</Text>
              <span className={styles.statValue}>
                {managementRelativeDate(overview.data?.lastMerge, now)}
              </span>
            </Card>
            <Card className={styles.stat}>
              <Text size={200}>Pending Reviews</Text>
              <span className={styles.statValue}>{overview.data?.pendingReviews ?? 0}</span>
            </Card>
          </div>

          <RouterLink to={paths.clientParameters.getHref(client)}>
            {`Parameters and baseline layers of ${client}`}
          </RouterLink>

          <TabList selectedValue={view} onTabSelect={(_, data) => chooseView(String(data.value))}>
            <Tab value="captures">Capture Review</Tab>
            <Tab value="baseline">Baseline Compliance</Tab>
          </TabList>

          {view === 'baseline' && (
            <div className={styles.tabPanel} role="tabpanel" aria-label="Baseline Compliance">
              {renderBaseline ? (
                renderBaseline(client)
              ) : (
                <MessageBar intent="info">
                  <MessageBarBody>
                    The baseline compliance report is not available in this build.
                  </MessageBarBody>
                </MessageBar>
              )}
            </div>
          )}

          {view === 'captures' && (
            <div className={styles.layout} role="tabpanel" aria-label="Capture Review">
              <CaptureSelector
                branches={list ?? []}
                loading={branches.isFetching && !list}
                selected={selectedBranch}
                onSelect={(name) => setSearch({ branch: name })}
                onRefresh={reload}
                now={now}
              />
              <div>
                {branch ? (
                  <ReviewWorkflow
                    key={branch.name}
                    client={client}
                    branch={branch}
                    userName={session.loggedInUser?.upn}
                    onReviewComplete={() => {
                      toast('success', 'Review completed successfully');
                      reload();
                    }}
                    onMerged={(id) => {
                      toast(
                        'success',
                        `Pull Request #${id} created! Awaiting approval in Azure DevOps.`,
                      );
                      reload();
                      void navigate(paths.captureManagement.getHref(client));
                    }}
                  />
                ) : selectedBranch && list ? (
                  <ResultBar intent="warning">
                    Capture branch {selectedBranch} was not found for client {client}.
                  </ResultBar>
                ) : (
                  <div className={styles.empty}>
                    <Text>Choose a capture to review.</Text>
                  </div>
                )}
              </div>
            </div>
          )}
        </>
      )}
    </>
  );
}
