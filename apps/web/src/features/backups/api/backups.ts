import type {
  BackupClientList,
  BackupComparison,
  BackupComparisonEvent,
  BackupContent,
  BackupList,
  BackupRestore,
  ManualBackup,
} from '@aegis/contracts';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';

import { api, ApiError, authorizedFetch } from '../../../lib/api-client';

const base = (client: string) => `/api/backups/${encodeURIComponent(client)}`;
const tagQuery = (tag: string) => `tag=${encodeURIComponent(tag)}`;

export const backupClientsQuery = queryOptions({
  queryKey: ['backups', 'clients'],
  queryFn: ({ signal }) => api<BackupClientList>('/api/backups/clients', { signal }),
});

export function backupListQuery(client: string) {
  return queryOptions({
    queryKey: ['backups', client, 'list'],
    queryFn: ({ signal }) => api<BackupList>(base(client), { signal }),
    staleTime: 0,
  });
}

export function useBackupClients() {
  return useQuery(backupClientsQuery);
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

export function useRestoreBackup() {
  return useMutation({
    mutationFn: ({ client, tag }: { client: string; tag: string }) =>
      api<BackupRestore>(`${base(client)}/restore`, { method: 'POST', body: { tag } }),
  });
}

/** Reads the NDJSON comparison stream, reporting progress, until the result or an error. */
export async function fetchBackupComparison(
  client: string,
  tag: string,
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
): Promise<BackupComparison> {
  const response = await authorizedFetch(`${base(client)}/comparison?${tagQuery(tag)}`, {
    signal,
  });
  if (!response.body) throw new ApiError(502, 'No content returned from API');
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (value) buffer += value;
    let newline = buffer.indexOf('\n');
    while (newline >= 0) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      newline = buffer.indexOf('\n');
      if (!line) continue;
      const event = JSON.parse(line) as BackupComparisonEvent;
      if (event.type === 'progress') onProgress(event.percent);
      else if (event.type === 'error') throw new ApiError(event.statusCode, event.message);
      else {
        const { type: _type, ...result } = event;
        return result;
      }
    }
    if (done) break;
  }
  throw new ApiError(502, 'No content returned from API');
}

/** Downloads a backup as a zip through the browser. */
export async function downloadBackup(client: string, tag: string): Promise<void> {
  const response = await authorizedFetch(`${base(client)}/download?${tagQuery(tag)}`);
  const disposition = response.headers.get('content-disposition') ?? '';
  const fileName = /filename="([^"]+)"/.exec(disposition)?.[1] ?? `${client}_backup.zip`;
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
