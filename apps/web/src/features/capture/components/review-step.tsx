import type { DriftChangeDto } from '@aegis/contracts';
import {
  filterDriftChanges,
  filterReviewDeviations,
  groupBy,
  parentFolder,
  policyFileName,
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
  ProgressBar,
  Tab,
  TabList,
  Text,
  tokens,
} from '@fluentui/react-components';
import { CheckmarkRegular } from '@fluentui/react-icons';

import { RoleGate } from '../../../components/role-gate';
import type { ReviewWorkflowFlow } from '../hooks/use-review-workflow-flow';

import { CategoryIcon } from './category-icon';
import { ReviewAnalysisCards } from './review-analysis-cards';

const useStyles = makeStyles({
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

/** An item's 'Mark Reviewed' button, or its 'Reviewed' badge once marked. */
function ReviewMark({
  flow,
  path,
  kind,
}: {
  flow: ReviewWorkflowFlow;
  path: string;
  kind: 'change' | 'deviation';
}) {
  const { state, dispatch } = flow;
  return state.reviewed.has(path) ? (
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
}

/**
 * The Review step (spec 3 §2, §4): the capture analysis, the review progress and the changed
 * policies and baseline deviations to mark reviewed. It stays under the approval dialog.
 */
export function ReviewStep({ flow }: { flow: ReviewWorkflowFlow }) {
  const styles = useStyles();
  const { state, dispatch, view, dispatchView, analysis, deviations, reviewable, reviewed } = flow;
  const data = analysis.data;
  if (!data) return null;
  const pct = reviewable.length === 0 ? 100 : (reviewed / reviewable.length) * 100;
  const changes = filterDriftChanges(data.drift.changes, view.changeFilter);
  const shownDeviations = filterReviewDeviations(deviations, view.severityFilter, true);

  return (
    <>
      <ReviewAnalysisCards flow={flow} />

      <Card className={styles.progress}>
        <Text weight="semibold">Review Progress</Text>
        <ProgressBar value={pct / 100} aria-label="Review progress" />
        <Text>{reviewProgressText(reviewed, reviewable.length)}</Text>
        <div className={styles.actions}>
          <Button
            disabled={flow.everythingReviewed || state.step !== 'review'}
            onClick={() => dispatch({ type: 'markAllReviewed', paths: reviewable })}
          >
            Mark All as Reviewed
          </Button>
          <RoleGate needs="Approver">
            <Button
              appearance="primary"
              disabled={!flow.everythingReviewed || state.step !== 'review'}
              onClick={flow.continueToApproval}
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
              selectedValue={view.changeFilter}
              onTabSelect={(_, d) =>
                dispatchView({ type: 'filterChanges', filter: d.value as ChangeFilter })
              }
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
                        onClick={() =>
                          dispatchView({ type: 'openDetail', detail: { mode: 'drift', change: c } })
                        }
                        aria-label={`View Details: change ${c.item.path}`}
                      >
                        View Details
                      </Button>
                      <ReviewMark flow={flow} path={c.item.path} kind="change" />
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
              selectedValue={view.severityFilter}
              onTabSelect={(_, d) =>
                dispatchView({ type: 'filterDeviations', filter: d.value as SeverityFilter })
              }
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
                      {d.isMissing ? 'missing' : plural(d.propertyCount, 'property', 'properties')}
                    </Text>
                    <Button
                      size="small"
                      appearance="subtle"
                      onClick={() =>
                        dispatchView({
                          type: 'openDetail',
                          detail: { mode: 'deviation', deviation: d },
                        })
                      }
                      aria-label={`View Details: deviation ${d.path}`}
                    >
                      View Details
                    </Button>
                    <ReviewMark flow={flow} path={d.path} kind="deviation" />
                  </div>
                ))}
              </div>
            ))}
          </AccordionPanel>
        </AccordionItem>
      </Accordion>
    </>
  );
}
