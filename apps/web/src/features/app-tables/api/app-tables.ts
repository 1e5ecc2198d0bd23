import type {
  AddPropertyRequest,
  CreateTableResponse,
  EntityKeysDto,
  ListTablesResponse,
  NewAppRequest,
  NewAppResponse,
  TableOperationResponse,
  TableRowsResponse,
} from '@aegis/contracts';
import type { AppTableValue } from '@aegis/domain';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';

const base = '/api/app-tables';
const tablePath = (table: string) => `${base}/${encodeURIComponent(table)}`;

const tablesQuery = queryOptions({
  queryKey: ['app-tables'],
  queryFn: ({ signal }) => api<ListTablesResponse>(base, { signal }),
});

function tableRowsQuery(table: string) {
  return queryOptions({
    queryKey: ['app-tables', table, 'rows'],
    queryFn: ({ signal }) => api<TableRowsResponse>(`${tablePath(table)}/rows`, { signal }),
  });
}

export function useTables() {
  return useQuery(tablesQuery);
}

export function useTableRows(table: string | undefined) {
  return useQuery({ ...tableRowsQuery(table ?? ''), enabled: Boolean(table) });
}

/** The key of every change to a table's rows or properties, so a screen can tell one is running. */
export const APP_TABLE_CHANGE = ['app-tables', 'change'];

/** Every mutation refreshes the list of tables and the rows of the table it changed. */
function useInvalidate() {
  const queryClient = useQueryClient();
  return (table?: string) =>
    queryClient.invalidateQueries({ queryKey: table ? ['app-tables', table] : ['app-tables'] });
}

export function useCreateTable() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (clientCode: string) =>
      api<CreateTableResponse>(base, { method: 'POST', body: { clientCode } }),
    onSettled: () => invalidate(),
  });
}

export function useCopyApps() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationKey: APP_TABLE_CHANGE,
    mutationFn: ({ table, rowKeys }: { table: string; rowKeys: string[] }) =>
      api<TableOperationResponse>(`${tablePath(table)}/copy`, {
        method: 'POST',
        body: { source: 'GENWorkstationApps', rowKeys },
      }),
    onSettled: (_data, _error, { table }) => invalidate(table),
  });
}

export function useAddApp() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationKey: APP_TABLE_CHANGE,
    mutationFn: ({ table, app }: { table: string; app: NewAppRequest['app'] }) =>
      api<NewAppResponse>(`${tablePath(table)}/apps`, { method: 'POST', body: { app } }),
    onSettled: (_data, _error, { table }) => invalidate(table),
  });
}

export function useUpdateApp() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationKey: APP_TABLE_CHANGE,
    mutationFn: ({
      table,
      keys,
      properties,
      etag,
    }: {
      table: string;
      keys: EntityKeysDto;
      properties: Record<string, AppTableValue>;
      etag?: string;
    }) =>
      api<TableOperationResponse>(
        `${tablePath(table)}/entities/${encodeURIComponent(keys.partitionKey)}/${encodeURIComponent(keys.rowKey)}`,
        { method: 'PATCH', body: { properties, etag } },
      ),
    onSettled: (_data, _error, { table }) => invalidate(table),
  });
}

export function useDeleteApps() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationKey: APP_TABLE_CHANGE,
    mutationFn: ({ table, keys }: { table: string; keys: EntityKeysDto[] }) =>
      api<TableOperationResponse>(`${tablePath(table)}/delete`, { method: 'POST', body: { keys } }),
    onSettled: (_data, _error, { table }) => invalidate(table),
  });
}

export function useAddProperty() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationKey: APP_TABLE_CHANGE,
    mutationFn: ({ table, ...body }: AddPropertyRequest & { table: string }) =>
      api<TableOperationResponse>(`${tablePath(table)}/properties`, { method: 'POST', body }),
    onSettled: (_data, _error, { table }) => invalidate(table),
  });
}

export function useDeleteProperty() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationKey: APP_TABLE_CHANGE,
    mutationFn: ({ table, name }: { table: string; name: string }) =>
      api<TableOperationResponse>(`${tablePath(table)}/properties/${encodeURIComponent(name)}`, {
        method: 'DELETE',
      }),
    onSettled: (_data, _error, { table }) => invalidate(table),
  });
}
