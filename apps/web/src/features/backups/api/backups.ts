import type {
  BackupComparison,
  BackupContent,
  BackupList,
  BackupRestore,
  BackupRun,
  ManualBackup,
} from '@aegis/contracts';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';

import { api, authorizedFetch } from '../../../lib/api-client';
import { handOverFile } from '../../../lib/hand-over-file';
import { readProgressStream } from '../../../lib/progress-stream';

const base = (client: string) => `/api/backups/${encodeURIComponent(client)}`;
const tagQuery = (tag: string) => `tag=${encodeURIComponent(tag)}`;

function backupListQuery(client: string) {
  return queryOptions({
    queryKey: ['backups', client, 'list'],
    queryFn: ({ signal }) => api<BackupList>(base(client), { signal }),
    staleTime: 0,
  });
}

export function useBackups(client: string | undefined) {
  return useQuery({ ...backupListQuery(client ?? ''), enabled: Boolean(client) });
}

export function useBackupContent(client: string, tag: string | undefined) {
  return useQuery({
    queryKey: ['backups', client, 'content', tag],
    enabled: Boolean(tag),
    queryFn: ({ signal }) =>
      api<BackupContent>(`${base(client)}/content?${tagQuery(tag ?? '')}`, { signal }),
  });
}

export function useStartManualBackup() {
  return useMutation({
    mutationFn: (client: string) => api<ManualBackup>(`${base(client)}/runs`, { method: 'POST' }),
  });
}

/** A manual backup's run: state and result. */
export function getBackupRun(
  client: string,
  runId: number,
  signal?: AbortSignal,
): Promise<BackupRun> {
  return api<BackupRun>(`${base(client)}/runs/${runId}`, signal ? { signal } : {});
}

export function useRestoreBackup() {
  return useMutation({
    /** `policies`: resource paths of the chosen policies; absent: the whole backup */
    mutationFn: ({ client, tag, policies }: { client: string; tag: string; policies?: string[] }) =>
      api<BackupRestore>(`${base(client)}/restore`, {
        method: 'POST',
        body: policies ? { tag, policies } : { tag },
      }),
  });
}

/** Chosen policies of a backup straight back into the tenant (issue 30 §4): a pipeline run. */
export function useStartTenantRestore() {
  return useMutation({
    mutationFn: ({ client, tag, policies }: { client: string; tag: string; policies: string[] }) =>
      api<ManualBackup>(`${base(client)}/restore-runs`, {
        method: 'POST',
        body: { tag, policies },
      }),
  });
}

/** A tenant restore's run: state and result. */
export function getTenantRestoreRun(
  client: string,
  runId: number,
  signal?: AbortSignal,
): Promise<BackupRun> {
  return api<BackupRun>(`${base(client)}/restore-runs/${runId}`, signal ? { signal } : {});
}

/** Streams the comparison of a backup with today's configuration, reporting progress. */
export function fetchBackupComparison(
  client: string,
  tag: string,
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
): Promise<BackupComparison> {
  return readProgressStream<BackupComparison>(
    `${base(client)}/comparison?${tagQuery(tag)}`,
    signal ? { signal } : {},
    onProgress,
  );
}

/** Downloads a backup as a zip through the browser. */
export async function downloadBackup(client: string, tag: string): Promise<void> {
  const response = await authorizedFetch(`${base(client)}/download?${tagQuery(tag)}`);
  const disposition = response.headers.get('content-disposition') ?? '';
  const fileName = /filename="([^"]+)"/.exec(disposition)?.[1] ?? `${client}_backup.zip`;
  handOverFile(await response.blob(), { saveAs: fileName });
}
