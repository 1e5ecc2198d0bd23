import type { BackupComparison } from '@aegis/contracts';
import { useEffect, useState } from 'react';

import { fetchBackupComparison } from '../api/backups';

export interface BackupComparisonState {
  progress: number;
  result?: BackupComparison;
  failed: boolean;
}

/** Streams the comparison of a backup with the current configuration while `tag` is set. */
export function useBackupComparison(
  client: string,
  tag: string | undefined,
): BackupComparisonState {
  const [state, setState] = useState<BackupComparisonState>({ progress: 0, failed: false });
  useEffect(() => {
    if (!tag) return;
    const controller = new AbortController();
    setState({ progress: 0, failed: false });
    fetchBackupComparison(
      client,
      tag,
      (progress) => setState((s) => ({ ...s, progress })),
      controller.signal,
    ).then(
      (result) => setState({ progress: 100, result, failed: false }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        // Spec 3 §8: a failed comparison is logged only.
        console.error('Backup comparison failed', error);
        setState((s) => ({ ...s, failed: true }));
      },
    );
    return () => controller.abort();
  }, [client, tag]);
  return state;
}
