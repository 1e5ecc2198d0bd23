import type {
  CaptureAnalysis,
  CaptureBranch,
  DriftChangeDto,
  ReviewDeviationDto,
} from '@aegis/contracts';
import {
  allReviewed,
  approverName,
  captureScoreClass,
  CONTINUE_TO_APPROVAL_ALERT,
  filterDriftChanges,
  filterReviewDeviations,
  groupBy,
  parentFolder,
  policyFileName,
  reviewableItems,
  reviewComplianceSummary,
  reviewedCount,
  reviewProgressText,
  type ChangeFilter,
  type SeverityFilter,
} from '@aegis/domain';
import {
  Accordion,
  AccordionHeader,
  AccordionItem,
  AccordionPanel,
  Badge,
  Button,
  Card,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  ProgressBar,
  Spinner,
  Switch,
  Tab,
  TabList,
  Text,
  tokens,
} from '@fluentui/react-components';
import { ArrowSyncRegular, CheckmarkRegular } from '@fluentui/react-icons';
import { useEffect, useMemo, useRef, useState } from 'react';

import { NotCapturedNotice } from '../../../components/not-captured-notice';
import { useNotify } from '../../../components/notifier';
import { RoleGate } from '../../../components/role-gate';
import { useCaptureAnalysis, useCreateCapturePullRequest } from '../api/capture-api';
import { useReviewProgress } from '../hooks/use-review-progress';

import { ApprovalDialog } from './approval-dialog';
import { CategoryIcon } from './category-icon';
import { ExclusionsDialog } from './exclusions-dialog';
import { PolicyDetailDialog, type PolicyDetail } from './policy-detail-dialog';
import { ReadyToMerge } from './ready-to-merge';
import { StepStrip } from './step-strip';
import { SuccessStep } from './success-step';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: '16px', minWidth: 0 },
  head: { display: 'flex', justifyContent: 'space-between', flexWrap: 'wrap', gap: '8px' },
  branch: { fontFamily: tokens.fontFamilyMonospace, wordBreak: 'break-all' },
  cards: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(280px, 1fr))',
    gap: '12px',
  },
  card: { padding: '16px', gap: '8px' },
  counts: { display: 'grid', gridTemplateColumns: 'repeat(4, 1fr)', gap: '8px' },
  count: { display: 'flex', flexDirection: 'column' },
  countValue: { fontSize: tokens.fontSizeHero700, fontWeight: tokens.fontWeightSemibold },
  progress: { padding: '16px', gap: '8px' },
  actions: { display: 'flex', gap: '8px', flexWrap: 'wrap' },
  group: { marginBottom: '12px' },
  groupHead: { display: 'flex', gap: '6px', alignItems: 'center', margin: '8px 0' },
  item: {
    display: 'flex',
    gap: '8px',
    alignItems: 'center',
    flexWrap: 'wrap',
    padding: '6px 8px',
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  itemName: { flexGrow: 1, minWidth: '200px', wordBreak: 'break-word' },
  excellent: { color: tokens.colorPaletteGreenForeground1 },
  good: { color: tokens.colorPaletteDarkOrangeForeground1 },
  fair: { color: tokens.colorPaletteRedForeground1 },
});

const CHANGE_BADGE = {
  add: { label: 'Added', color: 'success' },
  edit: { label: 'Modified', color: 'warning' },
  delete: { label: 'Deleted', color: 'danger' },
} as const;
const SEVERITY_COLOR = {
  critical: 'danger',
  high: 'severe',
  medium: 'warning',
  low: 'success',
  prerequisite: 'informative',
} as const;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function Count({ label, value }: { label: string; value: number }) {
  const styles = useStyles();
  return (
    <div className={styles.count}>
      <span className={styles.countValue}>{value}</span>
      <Text size={200}>{label}</Text>
    </div>
  );
}

export interface ReviewWorkflowProps {
  client: string;
  branch: CaptureBranch;
  /** the signed-in user's user name */
  userName: string | undefined;
  onReviewComplete: () => void;
  onMerged: (pullRequestId: number) => void;
}

/**
 * The four-step review of one capture (spec 3 §2, §4): Review (Capture Analysis, changed policies,
 * baseline deviations), Approve (dialog), Submit PR (Ready to Merge), Complete.
 */
export function ReviewWorkflow({
  client,
  branch,
  userName,
  onReviewComplete,
  onMerged,
}: ReviewWorkflowProps) {
  const styles = useStyles();
  const { state, dispatch, draftKey } = useReviewProgress(client, branch.name);
  const [exclusions, setExclusions] = useState<{ properties: string[]; paths: string[] }>({
    properties: [],
    paths: [],
  });
  const [exclusionsOpen, setExclusionsOpen] = useState(false);
  const [detail, setDetail] = useState<PolicyDetail>();
  const [includePrerequisites, setIncludePrerequisites] = useState(false);
  const [changeFilter, setChangeFilter] = useState<ChangeFilter>('all');
  const [severityFilter, setSeverityFilter] = useState<SeverityFilter>('all');
  const analysis = useCaptureAnalysis(client, {
    branch: branch.name,
    excludedProperties: exclusions.properties,
    excludedPaths: exclusions.paths,
  });
  const createPullRequest = useCreateCapturePullRequest(client);
  const notify = useNotify();
  const reanalysing = useRef(false);
  const alerted = useRef<unknown>(undefined);

  // Spec 3 §8: a failed load alerts once per failure; a failed re-analysis has its own text.
  useEffect(() => {
    if (!analysis.isError || alerted.current === analysis.error) return;
    alerted.current = analysis.error;
    notify({
      intent: 'error',
      title: reanalysing.current
        ? 'Failed to re-analyze. Please try again.'
        : 'Failed to load comparison data. Please try again.',
    });
  }, [analysis.isError, analysis.error, notify]);
  useEffect(() => {
    if (analysis.isSuccess) reanalysing.current = false;
  }, [analysis.isSuccess]);

  const data: CaptureAnalysis | undefined = analysis.data;
  const deviations = useMemo<ReviewDeviationDto[]>(
    () =>
      data ? filterReviewDeviations(data.compliance.deviations, 'all', includePrerequisites) : [],
    [data, includePrerequisites],
  );
  const reviewable = useMemo(
    () => (data ? reviewableItems(data.drift.changes, deviations) : []),
    [data, deviations],
  );
  const summary = data
    ? reviewComplianceSummary(
        data.compliance.totalCount,
        data.compliance.prerequisiteTotal,
        data.compliance.deviations,
        includePrerequisites,
      )
    : undefined;
  const reviewed = reviewedCount(state.reviewed, reviewable);
  const everythingReviewed = allReviewed(state.reviewed, reviewable);
  const pct = reviewable.length === 0 ? 100 : (reviewed / reviewable.length) * 100;
  const openPullRequest =
    branch.pullRequest?.status === 'active' ? branch.pullRequest.pullRequestId : undefined;

  function applyExclusions(properties: string[], paths: string[]): void {
    setExclusionsOpen(false);
    reanalysing.current = true;
    setExclusions({ properties, paths });
    dispatch({ type: 'reanalysed' });
  }

  function continueToApproval(): void {
    if (!everythingReviewed) {
      notify({ intent: 'warning', title: CONTINUE_TO_APPROVAL_ALERT });
      return;
    }
    dispatch({ type: 'continueToApproval', reviewable });
  }

  function approve(comments: string): void {
    if (!data || !summary) return;
    dispatch({
      type: 'approve',
      approval: {
        approvedBy: approverName(userName),
        approvedAt: new Date().toISOString(),
        comments,
        summary: {
          modified: data.drift.summary.modified,
          added: data.drift.summary.added,
          deleted: data.drift.summary.deleted,
        },
      },
    });
    onReviewComplete();
  }

  async function create(): Promise<void> {
    const approval = state.approval;
    if (!approval) return;
    try {
      const created = await createPullRequest.mutateAsync({
        branch: branch.name,
        comments: approval.comments,
        acknowledged: true,
        summary: approval.summary,
      });
      dispatch({
        type: 'pullRequestCreated',
        result: {
          pullRequestId: created.pullRequestId,
          prUrl: created.prUrl,
          createdBy: created.createdBy,
          status: created.status,
        },
      });
    } catch (error) {
      const message = error instanceof Error && error.message ? error.message : 'Unknown error';
      notify({ intent: 'error', title: `Failed to create pull request: ${message}` });
    }
  }

  const changes = data ? filterDriftChanges(data.drift.changes, changeFilter) : [];
  const shownDeviations = filterReviewDeviations(deviations, severityFilter, true);

  const reviewButton = (path: string, kind: 'change' | 'deviation') =>
    state.reviewed.has(path) ? (
      <Badge appearance="tint" color="success" icon={<CheckmarkRegular />}>
        Reviewed
      </Badge>
    ) : (
      <Button
        size="small"
        disabled={state.step !== 'review'}
        onClick={() => dispatch({ type: 'markReviewed', path })}
        aria-label={`Mark Reviewed: ${kind} ${path}`}
      >
        Mark Reviewed
      </Button>
    );

  return (
    <section className={styles.root} aria-label={`Review of ${branch.name}`}>
      <div className={styles.head}>
        <div>
          <Text as="h2" size={500} weight="semibold" block>
            Capture Review
          </Text>
          <Text className={styles.branch}>{branch.name}</Text>
        </div>
        {state.step === 'review' && (
          <Button
            icon={<ArrowSyncRegular />}
            onClick={() => setExclusionsOpen(true)}
            disabled={!data}
          >
            Update Exclusions &amp; Re-analyze
          </Button>
        )}
      </div>
      <StepStrip state={state} onGoTo={(step) => dispatch({ type: 'goTo', step })} />

      {analysis.isPending && <Spinner label="Analysing capture..." />}
      {analysis.isError && (
        <MessageBar intent="error">
          <MessageBarBody>
            <MessageBarTitle>Failed to load comparison data.</MessageBarTitle>
            {analysis.error.message}
          </MessageBarBody>
          <MessageBarActions>
            <Button onClick={() => void analysis.refetch()}>Try Again</Button>
          </MessageBarActions>
        </MessageBar>
      )}

      {data && <NotCapturedNotice workloads={data.notCaptured} partial={data.partial} />}

      {data && summary && (state.step === 'review' || state.step === 'approve') && (
        <>
          <Text as="h3" size={400} weight="semibold">
            Capture Analysis
          </Text>
          <div className={styles.cards}>
            <Card className={styles.card} aria-label="What's New">
              <Text weight="semibold">What&apos;s New</Text>
              <Text size={200}>Against the last merge to main</Text>
              <div className={styles.counts}>
                <Count label="Unchanged" value={data.drift.summary.unchanged} />
                <Count label="Modified" value={data.drift.summary.modified} />
                <Count label="Added" value={data.drift.summary.added} />
                <Count label="Deleted" value={data.drift.summary.deleted} />
                <Count label="Critical" value={data.drift.criticalCount} />
              </div>
            </Card>
            <Card className={styles.card} aria-label="Baseline Compliance">
              <Text weight="semibold">Baseline Compliance</Text>
              <Text size={200}>
                Against the recommended configuration:{' '}
                <span className={styles[captureScoreClass(summary.percentage)]}>
                  {summary.percentage}%
                </span>
              </Text>
              <div className={styles.counts}>
                <Count label="Compliant" value={summary.compliant} />
                <Count label="Critical" value={summary.critical} />
                <Count label="High" value={summary.high} />
                <Count label="Medium" value={summary.medium} />
              </div>
              <Switch
                label="Prerequisites"
                checked={includePrerequisites}
                onChange={(_, d) => setIncludePrerequisites(d.checked)}
              />
            </Card>
          </div>

          <Card className={styles.progress}>
            <Text weight="semibold">Review Progress</Text>
            <ProgressBar value={pct / 100} aria-label="Review progress" />
            <Text>{reviewProgressText(reviewed, reviewable.length)}</Text>
            <div className={styles.actions}>
              <Button
                disabled={everythingReviewed || state.step !== 'review'}
                onClick={() => dispatch({ type: 'markAllReviewed', paths: reviewable })}
              >
                Mark All as Reviewed
              </Button>
              <RoleGate needs="Approver">
                <Button
                  appearance="primary"
                  disabled={!everythingReviewed || state.step !== 'review'}
                  onClick={continueToApproval}
                >
                  Continue to Approval
                </Button>
              </RoleGate>
            </div>
          </Card>

          <Accordion multiple collapsible defaultOpenItems={['changes', 'deviations']}>
            <AccordionItem value="changes">
              <AccordionHeader>Changed Policies ({data.drift.changes.length})</AccordionHeader>
              <AccordionPanel>
                <TabList
                  size="small"
                  selectedValue={changeFilter}
                  onTabSelect={(_, d) => setChangeFilter(d.value as ChangeFilter)}
                  aria-label="Filter changed policies"
                >
                  <Tab value="all">All</Tab>
                  <Tab value="modified">Modified</Tab>
                  <Tab value="added">Added</Tab>
                  <Tab value="deleted">Deleted</Tab>
                </TabList>
                {changes.length === 0 && <Text block>No changed policies.</Text>}
                {groupBy(changes, (c: DriftChangeDto) => parentFolder(c.item.path)).map(
                  ([folder, items]) => (
                    <div key={folder} className={styles.group}>
                      <div className={styles.groupHead}>
                        <CategoryIcon category={folder} />
                        <Text weight="semibold">{folder}</Text>
                      </div>
                      {items.map((c) => (
                        <div key={c.item.path} className={styles.item}>
                          <Badge appearance="tint" color={CHANGE_BADGE[c.changeType].color}>
                            {CHANGE_BADGE[c.changeType].label}
                          </Badge>
                          <Text className={styles.itemName}>{policyFileName(c.item.path)}</Text>
                          {c.changeType === 'edit' && (
                            <Text size={200}>
                              {plural(c.propertyChangeCount ?? 0, 'property', 'properties')}
                            </Text>
                          )}
                          <Button
                            size="small"
                            appearance="subtle"
                            onClick={() => setDetail({ mode: 'drift', change: c })}
                            aria-label={`View Details: change ${c.item.path}`}
                          >
                            View Details
                          </Button>
                          {reviewButton(c.item.path, 'change')}
                        </div>
                      ))}
                    </div>
                  ),
                )}
              </AccordionPanel>
            </AccordionItem>
            <AccordionItem value="deviations">
              <AccordionHeader>Baseline Deviations ({deviations.length})</AccordionHeader>
              <AccordionPanel>
                <TabList
                  size="small"
                  selectedValue={severityFilter}
                  onTabSelect={(_, d) => setSeverityFilter(d.value as SeverityFilter)}
                  aria-label="Filter baseline deviations"
                >
                  <Tab value="all">All</Tab>
                  <Tab value="critical">Critical</Tab>
                  <Tab value="high">High</Tab>
                  <Tab value="medium">Medium</Tab>
                </TabList>
                {shownDeviations.length === 0 && <Text block>No baseline deviations.</Text>}
                {groupBy(shownDeviations, (d) => d.category).map(([category, items]) => (
                  <div key={category} className={styles.group}>
                    <div className={styles.groupHead}>
                      <CategoryIcon category={category} />
                      <Text weight="semibold">{category}</Text>
                    </div>
                    {items.map((d) => (
                      <div key={d.path} className={styles.item}>
                        <Badge appearance="filled" color={SEVERITY_COLOR[d.severity]}>
                          {d.severity}
                        </Badge>
                        <Text className={styles.itemName}>{d.policyName}</Text>
                        <Text size={200}>
                          {d.isMissing
                            ? 'missing'
                            : plural(d.propertyCount, 'property', 'properties')}
                        </Text>
                        <Button
                          size="small"
                          appearance="subtle"
                          onClick={() => setDetail({ mode: 'deviation', deviation: d })}
                          aria-label={`View Details: deviation ${d.path}`}
                        >
                          View Details
                        </Button>
                        {reviewButton(d.path, 'deviation')}
                      </div>
                    ))}
                  </div>
                ))}
              </AccordionPanel>
            </AccordionItem>
          </Accordion>
        </>
      )}

      {data && summary && state.step === 'approve' && (
        <ApprovalDialog
          open
          summary={{
            ...data.drift.summary,
            critical: summary.critical,
            high: summary.high,
          }}
          approver={approverName(userName)}
          triggeredBy={branch.metadata?.triggeredBy}
          partial={data.partial}
          onBack={() => dispatch({ type: 'goTo', step: 'review' })}
          onApprove={approve}
          draftKey={draftKey}
        />
      )}
      {state.step === 'merge' && state.approval && (
        <ReadyToMerge
          branch={branch.name}
          approval={state.approval}
          openPullRequest={openPullRequest}
          creating={createPullRequest.isPending}
          onBack={() => dispatch({ type: 'goTo', step: 'approve' })}
          onCreate={() => void create()}
        />
      )}
      {state.step === 'success' && state.result && (
        <SuccessStep
          branch={branch.name}
          result={state.result}
          onDone={() => onMerged(state.result?.pullRequestId ?? 0)}
        />
      )}

      {exclusionsOpen && (
        <ExclusionsDialog
          open
          properties={exclusions.properties}
          excludedPaths={exclusions.paths}
          onCancel={() => setExclusionsOpen(false)}
          onApply={applyExclusions}
        />
      )}
      <PolicyDetailDialog detail={detail} onClose={() => setDetail(undefined)} />
    </section>
  );
}
