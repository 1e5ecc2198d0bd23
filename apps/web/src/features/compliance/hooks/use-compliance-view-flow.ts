import { BASELINE_TOAST_MS, BASELINE_VIEW_TEXTS, ERROR_CODES, isSameMatch } from '@aegis/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useReducer, useState } from 'react';

import { useNotify, type Notice } from '../../../components/notifier';
import { ApiError } from '../../../lib/api-client';
import { matchingApi, useComplianceReport } from '../api/compliance-api';
import {
  readStoredMatching,
  writeStoredMatching,
  type StoredMatching,
} from '../utils/matching-storage';

import { complianceViewReducer, initialComplianceViewState } from './compliance-view-flow';

/**
 * The Baseline Compliance view as a flow: the report, the view's state (`complianceViewReducer`),
 * and the matches this browser holds beside the saved ones. Each panel and dialog takes the flow
 * and owns its own requests (accepting in the policy dialog, saving and clearing matches in smart
 * matching, removing one in the confirmed matches).
 */
export function useComplianceViewFlow(client: string, branch: string | undefined) {
  const queryClient = useQueryClient();
  const [stored, setStored] = useState<StoredMatching>(() => readStoredMatching(client));
  const report = useComplianceReport(client, branch, stored.pending);
  const [state, dispatch] = useReducer(complianceViewReducer, initialComplianceViewState);
  const notify = useNotify();
  // spec 3 §2: this view's toasts last 6 seconds
  const toast = useCallback(
    (intent: Notice['intent'], title: string) =>
      notify({ intent, title, timeoutInMs: BASELINE_TOAST_MS }),
    [notify],
  );

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

  return {
    client,
    branch,
    report,
    state,
    dispatch,
    toast,
    notCaptured,
    /** the saved matches and those only this browser holds */
    saved,
    stored,
    /** every match taken already: saved, or waiting in this browser */
    allSaved: [...(saved?.matches ?? []), ...stored.pending],
    /** keeps what this browser holds of the matching, in its storage and in the view */
    keepStored: (next: StoredMatching) => {
      writeStoredMatching(client, next);
      setStored(next);
    },
    reload: () =>
      void queryClient.invalidateQueries({ queryKey: ['compliance', client, 'report'] }),
  };
}

export type ComplianceViewFlow = ReturnType<typeof useComplianceViewFlow>;
