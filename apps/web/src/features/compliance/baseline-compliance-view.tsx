import type { AcceptDeviationsBody } from '@aegis/contracts';
import {
  ACCEPT_FAILED_MESSAGE,
  baselineHeader,
  BASELINE_TOAST_MS,
  BASELINE_VIEW_TEXTS,
  cleanupMessage,
  exportBlocker,
  dedupeMatches,
  DUPLICATE_MATCH_MESSAGE,
  ERROR_CODES,
  isSameMatch,
  makesCapturePartial,
  MATCHING_MESSAGES,
  policyId,
  type ConfirmedMatch,
  type SuggestionSummary,
  type UnmatchedSummary,
} from '@aegis/domain';
import {
  Button,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  Spinner,
  Text,
  tokens,
} from '@fluentui/react-components';
import { ArrowClockwiseRegular, SparkleRegular } from '@fluentui/react-icons';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useReducer, useState } from 'react';

import { useConfirm } from '../../components/confirm-dialog';
import { NotCapturedNotice } from '../../components/not-captured-notice';
import { useNotify, type Notice } from '../../components/notifier';
import { RoleGate } from '../../components/role-gate';
import { ApiError } from '../../lib/api-client';
import { useBrowserSession } from '../../lib/session';

import { matchingApi, useAcceptDeviations, useComplianceReport } from './api/compliance-api';
import { AcceptedSection } from './components/accepted-section';
import { ConfirmedMatches } from './components/confirmed-matches';
import { DeviationList } from './components/deviation-list';
import { ExportComplianceDialog } from './components/export-compliance-dialog';
import { PendingAcceptances } from './components/pending-acceptances';
import { PolicyDetailDialog } from './components/policy-detail-dialog';
import { PromoteDialog } from './components/promote-dialog';
import { SmartMatching } from './components/smart-matching';
import { SummaryCards } from './components/summary-cards';
import {
  autoMatchesFor,
  cleanedUpDraft,
  complianceViewReducer,
  initialComplianceViewState,
  isMatchTaken,
} from './hooks/compliance-view-flow';
import {
  readStoredMatching,
  writeStoredMatching,
  type StoredMatching,
} from './utils/matching-storage';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: '16px' },
  header: { display: 'flex', alignItems: 'center', gap: '12px', flexWrap: 'wrap' },
  grow: { flexGrow: 1 },
  center: {
    padding: '48px',
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: '12px',
    textAlign: 'center',
  },
  perfect: { color: tokens.colorPaletteGreenForeground1 },
});

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
 * The Baseline Compliance view (spec 3 §2): the client (main, or a capture branch) against the company baseline,
 * deviations by severity and service area, smart matching, accepted deviations and the export. Capture
 * management embeds it in its Baseline Compliance tab.
 */
export function BaselineComplianceView({ client, branch }: { client: string; branch?: string }) {
  const styles = useStyles();
  const queryClient = useQueryClient();
  const [stored, setStored] = useState<StoredMatching>(() => readStoredMatching(client));
  /** the resource path of the client's policy being promoted into the baseline */
  const [promoting, setPromoting] = useState<string | undefined>();
  const report = useComplianceReport(client, branch, stored.pending);
  const accept = useAcceptDeviations(client);
  const me = useBrowserSession().loggedInUser?.upn ?? '';
  const confirmPrompt = useConfirm();
  const notify = useNotify();
  // spec 3 §2: this view's toasts last 6 seconds
  const toast = (intent: Notice['intent'], title: string) =>
    notify({ intent, title, timeoutInMs: BASELINE_TOAST_MS });

  const [flow, dispatch] = useReducer(complianceViewReducer, initialComplianceViewState);
  const { draft, dialog } = flow;

  // the browser mirrors the saved configuration; matches waiting in this browser go to the repository again
  const saved = report.data?.matching;
  useEffect(() => {
    if (!saved) return;
    const current = readStoredMatching(client);
    const pending = current.pending.filter((p) => !saved.matches.some((m) => isSameMatch(m, p)));
    const next = { config: saved, pending };
    writeStoredMatching(client, next);
    setStored(next);
    if (pending.length === 0) return;
    let cancelled = false;
    matchingApi.save(client, pending).then(
      () => {
        if (cancelled) return;
        writeStoredMatching(client, { config: saved, pending: [] });
        void queryClient.invalidateQueries({ queryKey: ['compliance', client, 'report'] });
      },
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
  }, [client, saved, queryClient]);

  // matches only this browser holds are applied by the server too (the report's query sends them)
  const view = report.data;

  // main without the client's configuration is an empty state, not a failure to load: the 404's
  // code says so (ADR 042), whatever its message
  const notCaptured =
    report.isError &&
    !branch &&
    report.error instanceof ApiError &&
    report.error.status === 404 &&
    report.error.code === ERROR_CODES.noClientConfiguration;

  useEffect(() => {
    if (report.isError && !notCaptured) toast('error', BASELINE_VIEW_TEXTS.failedAlert);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [report.isError, notCaptured]);

  const reload = () =>
    void queryClient.invalidateQueries({ queryKey: ['compliance', client, 'report'] });

  const onAccept = (body: AcceptDeviationsBody) => {
    dispatch({ type: 'accepting' });
    accept.mutate(body, {
      onSuccess: (result) => {
        dispatch({ type: 'closeDialog' });
        toast('pending' in result ? 'warning' : 'success', result.message);
      },
      onError: () => {
        dispatch({ type: 'acceptFailed', message: ACCEPT_FAILED_MESSAGE });
        toast('error', ACCEPT_FAILED_MESSAGE);
      },
    });
  };

  const allSaved = [...(saved?.matches ?? []), ...stored.pending];
  const confirm = (u: UnmatchedSummary, s: SuggestionSummary) => {
    const match = toMatch(u, s);
    if (isMatchTaken(draft, allSaved, match)) {
      toast('info', DUPLICATE_MATCH_MESSAGE);
      return;
    }
    dispatch({ type: 'confirm', match, path: u.path });
  };

  const autoMatch = () => {
    const matches = autoMatchesFor(draft, allSaved, view?.unmatched ?? [], new Date());
    dispatch({ type: 'autoMatched', matches });
    toast('success', MATCHING_MESSAGES.autoMatched(matches.length));
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
      writeStoredMatching(client, { config: { ...stored.config, matches: [] }, pending: [] });
      setStored((s) => ({ config: { ...s.config, matches: [] }, pending: [] }));
      reload();
    } catch {
      toast('error', MATCHING_MESSAGES.clearFailed);
    }
  };

  const cleanup = () => {
    const { kept, removed } = cleanedUpDraft(draft);
    dispatch({ type: 'cleanedUp', kept });
    toast('info', cleanupMessage(removed));
  };

  const saveAndExit = async () => {
    const matches = dedupeMatches(draft.confirmed.map((c) => c.match)).matches;
    if (matches.length === 0) return;
    dispatch({ type: 'saving' });
    try {
      const config = await matchingApi.save(client, matches);
      writeStoredMatching(client, { config, pending: stored.pending });
      toast('success', `Saved ${matches.length} confirmed match(es).`);
    } catch {
      // the spec's fallback: keep them in this browser, and say so
      const next = {
        config: stored.config,
        pending: dedupeMatches([...stored.pending, ...matches]).matches,
      };
      writeStoredMatching(client, next);
      setStored(next);
      toast(
        'warning',
        'The matches could not be saved to the repository; they are kept in this browser and applied here until they can be saved.',
      );
    } finally {
      dispatch({ type: 'exitMatching' });
      reload();
    }
  };

  const removeMatch = async (m: ConfirmedMatch) => {
    const remove = await confirmPrompt({
      title: 'Remove match',
      body: MATCHING_MESSAGES.removePrompt(m.baselineName, m.clientName),
      confirmLabel: 'Remove',
    });
    if (!remove) return;
    const pending = stored.pending.filter((p) => p.baselineName !== m.baselineName);
    const next = {
      config: {
        ...stored.config,
        matches: stored.config.matches.filter((x) => x.baselineName !== m.baselineName),
      },
      pending,
    };
    writeStoredMatching(client, next);
    setStored(next);
    if (!saved?.matches.some((x) => x.baselineName === m.baselineName)) {
      toast('success', MATCHING_MESSAGES.removed);
      return;
    }
    try {
      await matchingApi.remove(client, m.baselineName);
      toast('success', MATCHING_MESSAGES.removed);
    } catch (error) {
      console.error('Failed to remove the match from the repository', error);
      toast('error', MATCHING_MESSAGES.removeFailed);
    }
    reload();
  };

  const header = (
    <div className={styles.header}>
      <Text as="h2" size={600} weight="semibold" className={styles.grow}>
        {baselineHeader(client, branch)}
      </Text>
      <Button icon={<ArrowClockwiseRegular />} onClick={reload} disabled={report.isFetching}>
        Refresh
      </Button>
    </div>
  );

  let body;
  if (report.isPending || (report.isFetching && !report.data)) {
    body = (
      <div className={styles.center}>
        <Spinner label={BASELINE_VIEW_TEXTS.loading} />
      </div>
    );
  } else if (notCaptured) {
    body = (
      <div className={styles.center}>
        <Text size={500} weight="semibold">
          {BASELINE_VIEW_TEXTS.noConfigurationTitle}
        </Text>
        <Text>{BASELINE_VIEW_TEXTS.noConfigurationBody(client)}</Text>
      </div>
    );
  } else if (report.isError || !view || !report.data) {
    body = (
      <div className={styles.center} role="alert">
        <Text size={500} weight="semibold">
          {BASELINE_VIEW_TEXTS.failedTitle}
        </Text>
        <Text>{report.error?.message}</Text>
        <Button appearance="primary" onClick={() => void report.refetch()}>
          Try Again
        </Button>
      </div>
    );
  } else {
    const data = view.compliance;
    body = (
      <>
        {report.data.warnings.map((w) => (
          <MessageBar key={w} intent="warning" layout="multiline">
            <MessageBarBody>{w}</MessageBarBody>
          </MessageBar>
        ))}
        <NotCapturedNotice
          workloads={data.notCaptured ?? []}
          partial={(data.notCaptured ?? []).some(makesCapturePartial)}
        />
        {stored.pending.length > 0 && (
          <MessageBar intent="warning" layout="multiline">
            <MessageBarBody>
              {stored.pending.length} confirmed match(es) are saved in this browser only: they could
              not be saved to the repository yet.
            </MessageBarBody>
          </MessageBar>
        )}
        {view.unmatched.length > 0 && flow.matching === 'off' && (
          <MessageBar intent="info" layout="multiline">
            <MessageBarBody>
              <MessageBarTitle>{BASELINE_VIEW_TEXTS.unmatchedTitle}</MessageBarTitle>
              {view.unmatched.length} baseline{' '}
              {view.unmatched.length === 1 ? 'policy is' : 'policies are'} missing from the client
              but may exist under another name.
            </MessageBarBody>
            <MessageBarActions>
              <RoleGate needs="Approver">
                <Button
                  appearance="primary"
                  icon={<SparkleRegular />}
                  onClick={() => dispatch({ type: 'startMatching' })}
                >
                  Enable Smart Matching
                </Button>
              </RoleGate>
            </MessageBarActions>
          </MessageBar>
        )}
        <SummaryCards data={data} unmatched={view.unmatched.length} />
        <ConfirmedMatches
          matches={saved?.matches ?? []}
          pending={stored.pending}
          onRemove={(m) => void removeMatch(m)}
        />
        {flow.matching !== 'off' && (
          <SmartMatching
            client={client}
            branch={branch}
            unmatched={view.unmatched}
            draft={draft}
            saving={flow.matching === 'saving'}
            onConfirm={confirm}
            onDismiss={(u) => dispatch({ type: 'dismiss', path: u.path })}
            onUndo={(path) => dispatch({ type: 'undo', path })}
            onAutoMatch={autoMatch}
            onClearAll={() => void clearAll()}
            onCleanup={cleanup}
            onSave={() => void saveAndExit()}
            onExit={() => dispatch({ type: 'exitMatching' })}
          />
        )}
        {data.deviations.length === 0 ? (
          <div className={styles.center}>
            <Text size={600} weight="semibold" className={styles.perfect}>
              {BASELINE_VIEW_TEXTS.perfectTitle}
            </Text>
            <Text>{BASELINE_VIEW_TEXTS.perfectBody}</Text>
          </div>
        ) : (
          <DeviationList
            groups={data.deviations}
            layers={report.data.policyLayers ?? {}}
            onOpen={(group) => dispatch({ type: 'openDetail', group })}
            onExport={() => {
              const blocker = exportBlocker(data);
              if (blocker) toast('info', blocker);
              else dispatch({ type: 'openExport' });
            }}
          />
        )}
        <PendingAcceptances
          client={client}
          requests={report.data?.acceptedDeviations?.pendingAcceptances ?? []}
          me={me}
        />
        <AcceptedSection client={client} groups={data.acceptedGroups ?? []} />
      </>
    );
  }

  return (
    <div className={styles.root}>
      {header}
      {body}
      {dialog.open === 'export' && view && (
        <ExportComplianceDialog
          client={client}
          data={view.compliance}
          onClose={() => dispatch({ type: 'closeDialog' })}
          onExported={(message) => toast('success', message)}
        />
      )}
      {dialog.open === 'detail' && (
        <PolicyDetailDialog
          key={dialog.group.path}
          group={dialog.group}
          busy={accept.isPending}
          {...(dialog.error ? { error: dialog.error } : {})}
          onClose={() => dispatch({ type: 'closeDialog' })}
          onAccept={onAccept}
          // promotion reads the client's policy on main, so only the report of main offers it
          {...(branch === undefined || branch === 'main'
            ? {
                onPromote: () => {
                  setPromoting(dialog.group.clientPath ?? dialog.group.path);
                  dispatch({ type: 'closeDialog' });
                },
              }
            : {})}
        />
      )}
      {promoting && (
        <PromoteDialog
          client={client}
          path={promoting}
          layers={report.data?.layers ?? []}
          onClose={() => setPromoting(undefined)}
        />
      )}
    </div>
  );
}
