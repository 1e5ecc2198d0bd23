// The drift page's runs (issue 28 §5): a revert of chosen objects and the drift checks, each
// followed with the shared run hook. A revert that succeeded starts a check at once, and a check
// that finished reloads the drift, so the page shows the drift resolved without a Refresh.
import { DEPLOY_RUN_POLLING, PIPELINE_CARD_RUN_POLLING } from '@aegis/domain';
import { useEffect, useRef, useState } from 'react';

import { useProjectRun, type FollowedRun, type ProjectRunRef } from '../../lib/pipeline-run';

import { useRevertDrift, useStartDriftCheck } from './api/drift-api';

export type RunPhase = 'running' | 'succeeded' | 'failed' | 'unknown';

function phaseOf(followed: FollowedRun): RunPhase {
  if (followed.error !== undefined) return 'unknown';
  if (followed.polls === 0 || followed.run?.state !== 'completed') return 'running';
  return followed.run.result === 'succeeded' ? 'succeeded' : 'failed';
}

export function useDriftRuns(client: string, reloadDrift: () => void) {
  const revertStart = useRevertDrift(client);
  const checkStart = useStartDriftCheck(client);
  const [revert, setRevert] = useState<ProjectRunRef & { count: number }>();
  const [check, setCheck] = useState<ProjectRunRef>();
  const revertFollowed = useProjectRun(revert, DEPLOY_RUN_POLLING);
  const checkFollowed = useProjectRun(check, PIPELINE_CARD_RUN_POLLING);
  const revertPhase = revert ? phaseOf(revertFollowed) : undefined;
  const checkPhase = check ? phaseOf(checkFollowed) : undefined;

  const startCheck = async () => {
    const started = await checkStart.mutateAsync();
    setCheck({
      project: started.project,
      pipelineId: started.pipelineId,
      id: started.runId,
      state: 'inProgress',
    });
  };

  // each revert that succeeded is checked once; each finished check reloads the drift once
  const checkedAfter = useRef<number>(undefined);
  useEffect(() => {
    if (revertPhase !== 'succeeded' || !revert || checkedAfter.current === revert.id) return;
    checkedAfter.current = revert.id;
    startCheck().catch(() => undefined); // the check's failure is shown from checkStart
  });
  const reloadedAfter = useRef<number>(undefined);
  useEffect(() => {
    if (!check || checkPhase === 'running' || reloadedAfter.current === check.id) return;
    reloadedAfter.current = check.id;
    reloadDrift();
  });

  return {
    revert: revert && revertPhase ? { ...revert, phase: revertPhase } : undefined,
    check: check && checkPhase ? { ref: check, phase: checkPhase } : undefined,
    revertError: revertStart.error,
    checkError: checkStart.error,
    busy: revertStart.isPending || revertPhase === 'running' || checkStart.isPending,
    checking: checkStart.isPending || checkPhase === 'running',
    /** starts the revert of these drifted objects (their paths) */
    startRevert: async (objects: readonly string[]) => {
      checkStart.reset();
      const started = await revertStart.mutateAsync(objects);
      setRevert({
        project: started.project,
        pipelineId: started.pipelineId,
        id: started.runId,
        state: started.state,
        count: objects.length,
      });
    },
    startCheck,
  };
}
