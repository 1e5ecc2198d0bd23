import {
  AUTO_MATCH_THRESHOLD,
  cleanupMessage,
  dedupeMatches,
  DUPLICATE_MATCH_MESSAGE,
  MATCHING_MESSAGES,
  policyId,
  displayNameBand,
  displayNameSimilarity,
  matchingProgress,
  matchQuality,
  textOf,
  type ConfirmedMatch,
  type SuggestionSummary,
  type UnmatchedSummary,
} from '@aegis/domain';
import {
  Badge,
  Button,
  Card,
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
  Spinner,
  Text,
  tokens,
} from '@fluentui/react-components';
import { useState } from 'react';

import { useConfirm } from '../../../components/confirm-dialog';
import { RoleGate } from '../../../components/role-gate';
import { matchingApi, useClientPolicy } from '../api/compliance-api';
import { autoMatchesFor, cleanedUpDraft, isMatchTaken } from '../hooks/compliance-view-flow';
import type { ComplianceViewFlow } from '../hooks/use-compliance-view-flow';

const useStyles = makeStyles({
  panel: {
    display: 'flex',
    flexDirection: 'column',
    gap: '12px',
    padding: '16px',
    border: `2px solid ${tokens.colorBrandStroke1}`,
    borderRadius: tokens.borderRadiusLarge,
  },
  bar: { display: 'flex', gap: '8px', flexWrap: 'wrap', alignItems: 'center' },
  grow: { flexGrow: 1 },
  card: { padding: '12px 16px', gap: '8px' },
  suggestion: {
    display: 'flex',
    flexDirection: 'column',
    gap: '4px',
    padding: '8px 10px',
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
  },
  confirmed: {
    display: 'flex',
    gap: '8px',
    alignItems: 'center',
    flexWrap: 'wrap',
    padding: '6px 0',
  },
  pre: {
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    whiteSpace: 'pre-wrap',
    overflowWrap: 'anywhere',
    maxHeight: '50vh',
    overflowY: 'auto',
    margin: 0,
  },
  compare: { display: 'grid', gridTemplateColumns: '1fr 1fr', gap: '12px' },
  surface: { maxWidth: '1100px', width: '95vw' },
});

function get(o: unknown, key: string): unknown {
  if (o === null || typeof o !== 'object') return undefined;
  const k = Object.keys(o).find((x) => x.toLowerCase() === key.toLowerCase());
  return k === undefined ? undefined : (o as Record<string, unknown>)[k];
}

/** Conditions, controls and compliance requirements of a policy, as short lines. */
function summaryLines(policy: unknown): string[] {
  const lines: string[] = [];
  const conditions = get(policy, 'conditions');
  if (conditions) {
    const apps = get(get(conditions, 'applications'), 'includeApplications');
    const users = get(get(conditions, 'users'), 'includeUsers');
    const roles = get(get(conditions, 'users'), 'includeRoles');
    const clientApps = get(conditions, 'clientAppTypes');
    if (users) lines.push(`Users: ${JSON.stringify(users)}`);
    if (Array.isArray(roles) && roles.length) lines.push(`Roles: ${roles.length}`);
    if (apps) lines.push(`Applications: ${JSON.stringify(apps)}`);
    if (clientApps) lines.push(`Client apps: ${JSON.stringify(clientApps)}`);
  }
  const grant = get(policy, 'grantControls');
  if (grant) lines.push(`Grant: ${JSON.stringify(get(grant, 'builtInControls') ?? grant)}`);
  const session = get(policy, 'sessionControls');
  if (session) lines.push(`Session: ${JSON.stringify(session).slice(0, 80)}`);
  const state = get(policy, 'state');
  if (state) lines.push(`State: ${textOf(state)}`);
  if (lines.length === 0 && policy && typeof policy === 'object') {
    lines.push(`${Object.keys(policy).length} settings`);
  }
  return lines.map((l) => (l.length > 120 ? `${l.slice(0, 117)}...` : l));
}

const toMatch = (u: UnmatchedSummary, s: SuggestionSummary): ConfirmedMatch => {
  const baselineId = policyId(u.baselinePolicy);
  return {
    ...(baselineId ? { baselineId } : {}),
    baselineName: u.baselineName,
    ...(s.clientId ? { clientId: s.clientId } : {}),
    clientName: s.clientName,
    score: s.score,
    scores: s.scores,
    confirmedAt: new Date().toISOString(),
    baselinePath: u.path,
  };
};

/**
 * The 'Intelligent Policy Matching' mode (spec 3 §2, §4, §5): it edits the flow's draft, and
 * saves it (Save & Exit) or clears every match (Clear All) itself.
 */
export function SmartMatching({
  flow,
  unmatched,
}: {
  flow: ComplianceViewFlow;
  unmatched: readonly UnmatchedSummary[];
}) {
  const { client, branch, dispatch, toast, stored, allSaved, keepStored, reload } = flow;
  const { draft } = flow.state;
  const saving = flow.state.matching === 'saving';
  const confirmPrompt = useConfirm();

  const onConfirm = (u: UnmatchedSummary, s: SuggestionSummary) => {
    const match = toMatch(u, s);
    if (isMatchTaken(draft, allSaved, match)) {
      toast('info', DUPLICATE_MATCH_MESSAGE);
      return;
    }
    dispatch({ type: 'confirm', match, path: u.path });
  };
  const onDismiss = (u: UnmatchedSummary) => dispatch({ type: 'dismiss', path: u.path });
  const onUndo = (path: string) => dispatch({ type: 'undo', path });

  const onAutoMatch = () => {
    const matches = autoMatchesFor(draft, allSaved, unmatched, new Date());
    dispatch({ type: 'autoMatched', matches });
    toast('success', MATCHING_MESSAGES.autoMatched(matches.length));
  };

  const onCleanup = () => {
    const { kept, removed } = cleanedUpDraft(draft);
    dispatch({ type: 'cleanedUp', kept });
    toast('info', cleanupMessage(removed));
  };

  const clearAll = async () => {
    const n = draft.confirmed.length + allSaved.length;
    const clear = await confirmPrompt({
      title: 'Clear All Matches',
      body: MATCHING_MESSAGES.clearPrompt(n),
      confirmLabel: 'Clear All',
    });
    if (!clear) return;
    dispatch({ type: 'clearDraft' });
    if (allSaved.length === 0) return;
    try {
      await matchingApi.clear(client);
      keepStored({ config: { ...stored.config, matches: [] }, pending: [] });
      reload();
    } catch {
      toast('error', MATCHING_MESSAGES.clearFailed);
    }
  };

  const saveAndExit = async () => {
    const matches = dedupeMatches(draft.confirmed.map((c) => c.match)).matches;
    if (matches.length === 0) return;
    dispatch({ type: 'saving' });
    try {
      const config = await matchingApi.save(client, matches);
      keepStored({ config, pending: stored.pending });
      toast('success', `Saved ${matches.length} confirmed match(es).`);
    } catch {
      // the spec's fallback: keep them in this browser, and say so
      keepStored({
        config: stored.config,
        pending: dedupeMatches([...stored.pending, ...matches]).matches,
      });
      toast(
        'warning',
        'The matches could not be saved to the repository; they are kept in this browser and applied here until they can be saved.',
      );
    } finally {
      dispatch({ type: 'exitMatching' });
      reload();
    }
  };
  const onClearAll = () => void clearAll();
  const onSave = () => void saveAndExit();
  const onExit = () => dispatch({ type: 'exitMatching' });

  const styles = useStyles();
  const [compare, setCompare] = useState<
    { u: UnmatchedSummary; s: SuggestionSummary } | undefined
  >();
  const done = new Set([...draft.confirmed.map((c) => c.path), ...draft.dismissed]);
  const open = unmatched.filter((u) => !done.has(u.path));
  const confirmed = draft.confirmed.length;
  const total = confirmed + open.length;
  const canAuto = open.some((u) => (u.suggestions[0]?.score ?? 0) >= AUTO_MATCH_THRESHOLD);
  return (
    <section className={styles.panel} aria-label="Intelligent Policy Matching">
      <div className={styles.bar}>
        <Text as="h3" size={500} weight="semibold" className={styles.grow}>
          Intelligent Policy Matching
        </Text>
        <Button disabled={!canAuto} onClick={onAutoMatch}>
          Auto-match High Confidence (≥90%)
        </Button>
        <RoleGate needs="Approver">
          <Button appearance="primary" disabled={confirmed === 0 || saving} onClick={onSave}>
            {saving ? 'Saving...' : 'Save & Exit'}
          </Button>
        </RoleGate>
        <Button onClick={onExit}>Exit Without Saving</Button>
      </div>
      <div>
        <Text>
          {confirmed} of {total} policies matched
        </Text>
        <ProgressBar
          value={matchingProgress(confirmed, open.length) / 100}
          aria-label="Matching progress"
          thickness="large"
        />
      </div>
      {confirmed > 0 && (
        <Card className={styles.card} role="group" aria-label="Confirmed in this session">
          <div className={styles.bar}>
            <Text weight="semibold" className={styles.grow}>
              Confirmed ({confirmed})
            </Text>
            <Button size="small" onClick={onCleanup}>
              Clean Up Duplicates
            </Button>
            <Button size="small" onClick={onClearAll}>
              Clear All Matches
            </Button>
          </div>
          {draft.confirmed.map(({ match, path }) => (
            <div key={path} className={styles.confirmed}>
              <Badge color="success">{match.score}%</Badge>
              <Text>
                {match.baselineName} ↔ {match.clientName}
              </Text>
              <Button size="small" onClick={() => onUndo(path)}>
                Undo
              </Button>
            </div>
          ))}
        </Card>
      )}
      {open.map((u) => (
        <Card
          key={u.path}
          className={styles.card}
          role="group"
          aria-label={`Unmatched ${u.baselineName}`}
        >
          <Text weight="semibold">{u.baselineName}</Text>
          <Text size={200}>{u.path}</Text>
          {summaryLines(u.baselinePolicy).map((l) => (
            <Text key={l} size={200} font="monospace">
              {l}
            </Text>
          ))}
          <Text weight="semibold">Suggested matches</Text>
          {u.suggestions.map((s) => {
            const name = displayNameSimilarity(u.baselineName, s.clientName);
            return (
              <div key={s.clientId ?? s.clientName} className={styles.suggestion}>
                <div className={styles.bar}>
                  <Badge color={s.score >= 90 ? 'success' : s.score >= 75 ? 'warning' : 'danger'}>
                    {s.score}% {matchQuality(s.score)}
                  </Badge>
                  <Text weight="semibold" className={styles.grow}>
                    {s.clientName}
                  </Text>
                  {s.stateMismatch && <Badge color="warning">State mismatch</Badge>}
                </div>
                <Text size={200}>
                  {s.explanation}
                  {displayNameBand(name) ? ` · ${displayNameBand(name)}` : ''}
                </Text>
                <Text size={200}>
                  Conditions {Math.round(s.scores.conditions)}% · Grant controls{' '}
                  {Math.round(s.scores.grantControls)}% · Session controls{' '}
                  {Math.round(s.scores.sessionControls)}%
                </Text>
                <div className={styles.bar}>
                  <RoleGate needs="Approver">
                    <Button size="small" appearance="primary" onClick={() => onConfirm(u, s)}>
                      Confirm Match
                    </Button>
                  </RoleGate>
                  <Button size="small" onClick={() => setCompare({ u, s })}>
                    View Detailed Comparison
                  </Button>
                </div>
              </div>
            );
          })}
          <div>
            <Button size="small" onClick={() => onDismiss(u)}>
              {u.suggestions.length === 1 ? 'Mark as No Match' : 'None of These Match'}
            </Button>
          </div>
        </Card>
      ))}
      {open.length === 0 && <Text>Every unmatched policy has been handled.</Text>}
      {compare && (
        <DetailedComparison
          client={client}
          {...(branch ? { branch } : {})}
          unmatched={compare.u}
          suggestion={compare.s}
          onClose={() => setCompare(undefined)}
          onConfirm={() => {
            onConfirm(compare.u, compare.s);
            setCompare(undefined);
          }}
        />
      )}
    </section>
  );
}

/**
 * 'View Detailed Comparison': both policies side by side. The client policy's document is loaded
 * when the dialog opens (the report carries suggestions without documents, ADR 040).
 */
function DetailedComparison({
  client,
  branch,
  unmatched,
  suggestion,
  onClose,
  onConfirm,
}: {
  client: string;
  branch?: string;
  unmatched: UnmatchedSummary;
  suggestion: SuggestionSummary;
  onClose: () => void;
  onConfirm: () => void;
}) {
  const styles = useStyles();
  const clientPolicy = useClientPolicy(client, suggestion.clientPath, branch);
  return (
    <Dialog open onOpenChange={(_e, data) => !data.open && onClose()}>
      <DialogSurface className={styles.surface}>
        <DialogBody>
          <DialogTitle>
            {unmatched.baselineName} ↔ {suggestion.clientName} ({suggestion.score}%)
          </DialogTitle>
          <DialogContent className={styles.compare}>
            <div>
              <Text weight="semibold">Baseline policy</Text>
              <pre
                className={styles.pre}
                role="region"
                aria-label="Baseline policy JSON"
                tabIndex={0}
              >
                {JSON.stringify(unmatched.baselinePolicy, null, 2)}
              </pre>
            </div>
            <div>
              <Text weight="semibold">
                Client policy{suggestion.clientId ? ` (${suggestion.clientId})` : ''}
              </Text>
              {clientPolicy.isPending ? (
                <Spinner size="small" label="Loading the client policy..." />
              ) : clientPolicy.isError ? (
                <MessageBar intent="error">
                  <MessageBarBody>
                    The client policy could not be loaded: {clientPolicy.error.message}
                  </MessageBarBody>
                </MessageBar>
              ) : (
                <pre
                  className={styles.pre}
                  role="region"
                  aria-label="Client policy JSON"
                  tabIndex={0}
                >
                  {JSON.stringify(clientPolicy.data.policy, null, 2)}
                </pre>
              )}
            </div>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>Close</Button>
            <RoleGate needs="Approver">
              <Button appearance="primary" onClick={onConfirm}>
                Confirm Match
              </Button>
            </RoleGate>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
