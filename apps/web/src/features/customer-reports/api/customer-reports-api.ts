import type {
  ReportBranding,
  ReportBrandingBody,
  CustomerReportHistory,
  CustomerReportScheduleBody,
  CustomerReportScheduleResponse,
  CustomerReportSend,
} from '@aegis/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { api, authorizedFetch } from '../../../lib/api-client';
import { handOverFile } from '../../../lib/hand-over-file';

const BRANDING_KEY = ['customer-reports', 'branding'] as const;

export function useReportBranding() {
  return useQuery({
    queryKey: BRANDING_KEY,
    queryFn: ({ signal }) => api<ReportBranding>('/api/customer-reports/branding', { signal }),
  });
}

export function useSaveReportBranding() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ReportBrandingBody) =>
      api<ReportBranding>('/api/customer-reports/branding', { method: 'PUT', body }),
    onSuccess: (saved) => queryClient.setQueryData(BRANDING_KEY, saved),
  });
}

const base = (client: string) => `/api/customer-reports/${encodeURIComponent(client)}`;

export function useReportSchedule(client: string | undefined) {
  return useQuery({
    queryKey: ['customer-reports', client, 'schedule'],
    enabled: Boolean(client),
    queryFn: ({ signal }) =>
      api<CustomerReportScheduleResponse>(`${base(client ?? '')}/schedule`, { signal }),
  });
}

export function useReportHistory(client: string | undefined) {
  return useQuery({
    queryKey: ['customer-reports', client, 'sends'],
    enabled: Boolean(client),
    queryFn: ({ signal }) => api<CustomerReportHistory>(`${base(client ?? '')}/sends`, { signal }),
  });
}

export function useSaveReportSchedule(client: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CustomerReportScheduleBody) =>
      api<CustomerReportScheduleResponse>(`${base(client)}/schedule`, { method: 'PUT', body }),
    onSuccess: (saved) => queryClient.setQueryData(['customer-reports', client, 'schedule'], saved),
  });
}

export function useSendReportNow(client: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api<CustomerReportSend>(`${base(client)}/sends`, { method: 'POST', body: {} }),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: ['customer-reports', client, 'sends'] }),
  });
}

/** Opens a PDF of the API in a new tab (the preview) or saves it (a sent report). */
async function openPdf(path: string, fileName: string, mode: 'open' | 'save'): Promise<void> {
  const response = await authorizedFetch(path);
  handOverFile(await response.blob(), mode === 'save' ? { saveAs: fileName } : 'new-tab');
}

export function previewReport(client: string): Promise<void> {
  return openPdf(`${base(client)}/preview`, `${client}_Compliance_Report_preview.pdf`, 'open');
}

export function downloadSentReport(client: string, send: CustomerReportSend): Promise<void> {
  return openPdf(
    `${base(client)}/sends/${encodeURIComponent(send.id)}/pdf`,
    `${client}_Compliance_Report_${send.periodId}.pdf`,
    'save',
  );
}
