import type { CaptureBranch } from '@aegis/contracts';
import {
  classifyCaptureBranches,
  formatCaptureDate,
  selectorRelativeDate,
  visibleMergedBranches,
} from '@aegis/domain';
import {
  Accordion,
  AccordionHeader,
  AccordionItem,
  AccordionPanel,
  Badge,
  Button,
  Card,
  Link,
  makeStyles,
  mergeClasses,
  Spinner,
  Text,
  tokens,
} from '@fluentui/react-components';
import { ArrowClockwiseRegular, BranchRegular } from '@fluentui/react-icons';
import { useState } from 'react';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: '12px' },
  head: { display: 'flex', justifyContent: 'space-between', alignItems: 'center' },
  section: { display: 'flex', flexDirection: 'column', gap: '8px' },
  card: { padding: '12px', gap: '6px' },
  selected: { outline: `2px solid ${tokens.colorBrandStroke1}` },
  name: {
    fontFamily: tokens.fontFamilyMonospace,
    wordBreak: 'break-all',
    display: 'flex',
    gap: '6px',
    alignItems: 'center',
  },
  meta: { display: 'flex', gap: '6px', flexWrap: 'wrap', alignItems: 'center' },
  muted: { color: tokens.colorNeutralForeground3 },
  empty: { padding: '24px', textAlign: 'center', color: tokens.colorNeutralForeground3 },
});

function PullRequestBadge({ branch }: { branch: CaptureBranch }) {
  const pr = branch.pullRequest;
  if (!pr) return null;
  const color =
    pr.status === 'active' ? 'informative' : pr.status === 'completed' ? 'success' : 'danger';
  return (
    <Badge appearance="outline" color={color}>
      PR #{pr.pullRequestId} {pr.status}
      {pr.approvedBy.length > 0 ? `, approved by ${pr.approvedBy.join(', ')}` : ''}
    </Badge>
  );
}

function BranchCard({
  branch,
  badge,
  selected,
  onSelect,
  now,
}: {
  branch: CaptureBranch;
  badge: 'Pending Review' | 'Archived';
  selected: boolean;
  onSelect: (name: string) => void;
  now: Date;
}) {
  const styles = useStyles();
  const m = branch.metadata;
  return (
    <Card
      className={mergeClasses(styles.card, selected && styles.selected)}
      aria-label={`Capture ${branch.name}`}
      role="group"
    >
      <Text weight="semibold" className={styles.name}>
        <BranchRegular aria-hidden />
        {branch.name}
      </Text>
      <div className={styles.meta}>
        <Text size={200} className={styles.muted}>
          {selectorRelativeDate(branch.date, now)}
        </Text>
        <Badge appearance="tint" color={badge === 'Archived' ? 'subtle' : 'warning'}>
          {badge}
        </Badge>
        <PullRequestBadge branch={branch} />
        {branch.partial && (
          <Badge
            appearance="filled"
            color="danger"
            title={branch.notCaptured.map((w) => `${w.workload}: ${w.text}`).join('\n')}
          >
            Partial
          </Badge>
        )}
      </div>
      <div className={styles.meta}>
        <Text size={200}>{m?.changeCount ?? '?'} changes</Text>
        <Text size={200}>{m?.criticalCount ?? 0} critical</Text>
        {m?.baselineVersion && <Text size={200}>Baseline v{m.baselineVersion}</Text>}
      </div>
      {branch.partial && (
        <Text size={200}>
          Not captured:{' '}
          {branch.notCaptured
            .filter((w) => w.status === 'failed' || w.status === 'notPermitted')
            .map((w) => w.workload)
            .join(', ')}
        </Text>
      )}
      <div>
        <Button
          size="small"
          appearance={selected ? 'primary' : 'secondary'}
          aria-pressed={selected}
          aria-label={`${selected ? 'Viewing' : 'Review'} ${branch.name}`}
          onClick={() => onSelect(branch.name)}
        >
          {selected ? 'Viewing' : 'Review'}
        </Button>
      </div>
    </Card>
  );
}

/** A merged capture: who merged it when, and its pull request's history. */
function MergedCard({ branch, archived = false }: { branch: CaptureBranch; archived?: boolean }) {
  const styles = useStyles();
  return (
    <Card className={styles.card} role="group" aria-label={`Merged ${branch.name}`}>
      <Text weight="semibold" className={styles.name}>
        <BranchRegular aria-hidden />
        {branch.name}
      </Text>
      <div className={styles.meta}>
        <Badge appearance="tint" color="success">
          Merged
        </Badge>
        {archived && (
          <Badge appearance="tint" color="subtle">
            Archived
          </Badge>
        )}
        <Text size={200} className={styles.muted}>
          Merged by {branch.mergedBy ?? 'Unknown'} on{' '}
          {branch.mergedDate ? formatCaptureDate(branch.mergedDate) : 'Unknown'}
        </Text>
      </div>
      {branch.pullRequest && (
        <div>
          <Link href={branch.pullRequest.prUrl} target="_blank" rel="noreferrer">
            View History
          </Link>
        </div>
      )}
    </Card>
  );
}

/** Capture selector (spec 3 §2): Pending Review, Recently Merged, Archived. */
export function CaptureSelector({
  branches,
  loading,
  selected,
  onSelect,
  onRefresh,
  now = new Date(),
}: {
  branches: CaptureBranch[];
  loading: boolean;
  selected: string | undefined;
  onSelect: (name: string) => void;
  onRefresh: () => void;
  now?: Date;
}) {
  const styles = useStyles();
  const [showAllMerged, setShowAllMerged] = useState(false);
  const { pending, merged, archived } = classifyCaptureBranches(branches, now);
  const mergedView = visibleMergedBranches(merged, showAllMerged);

  return (
    <section className={styles.root} aria-labelledby="recent-captures">
      <div className={styles.head}>
        <Text as="h2" id="recent-captures" size={500} weight="semibold">
          Recent Captures
        </Text>
        <Button
          size="small"
          icon={<ArrowClockwiseRegular />}
          onClick={onRefresh}
          disabled={loading}
        >
          Refresh
        </Button>
      </div>
      {loading && <Spinner size="small" label="Loading captures..." />}
      {!loading && branches.length === 0 && (
        <div className={styles.empty}>
          <Text block weight="semibold">
            No capture branches found for this client.
          </Text>
          <Text block>Automated captures will appear here once configured.</Text>
        </div>
      )}
      {pending.length > 0 && (
        <div className={styles.section}>
          <Text as="h3" weight="semibold">
            Pending Review ({pending.length})
          </Text>
          {pending.map((b) => (
            <BranchCard
              key={b.name}
              branch={b}
              badge="Pending Review"
              selected={selected === b.name}
              onSelect={onSelect}
              now={now}
            />
          ))}
        </div>
      )}
      {merged.length > 0 && (
        <div className={styles.section}>
          <Text as="h3" weight="semibold">
            Recently Merged ({merged.length})
          </Text>
          {mergedView.visible.map((b) => (
            <MergedCard key={b.name} branch={b} />
          ))}
          {mergedView.toggleLabel && (
            <Button appearance="transparent" onClick={() => setShowAllMerged((v) => !v)}>
              {mergedView.toggleLabel}
            </Button>
          )}
        </div>
      )}
      {archived.length > 0 && (
        <Accordion collapsible>
          <AccordionItem value="archived">
            <AccordionHeader>Archived ({archived.length})</AccordionHeader>
            <AccordionPanel>
              <div className={styles.section}>
                {archived.map((b) =>
                  // a merged capture has nothing left to review: its history, as Recently Merged
                  b.merged ? (
                    <MergedCard key={b.name} branch={b} archived />
                  ) : (
                    <BranchCard
                      key={b.name}
                      branch={b}
                      badge="Archived"
                      selected={selected === b.name}
                      onSelect={onSelect}
                      now={now}
                    />
                  ),
                )}
              </div>
            </AccordionPanel>
          </AccordionItem>
        </Accordion>
      )}
    </section>
  );
}
