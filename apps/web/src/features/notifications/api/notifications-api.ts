import type {
  ChannelTestResult,
  Notification,
  NotificationChannel,
  NotificationChannelInput,
  NotificationChannelList,
  NotificationList,
  NotificationRule,
  NotificationRuleInput,
  NotificationRuleList,
  SnoozeNotification,
} from '@aegis/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';

/** The notification centre's list (tests seed it). */
export const NOTIFICATIONS_QUERY_KEY = ['notifications'];
/** How often the header asks for new notifications. */
const NOTIFICATIONS_POLL_IN_MS = 30_000;

export function useNotifications(enabled: boolean) {
  return useQuery({
    queryKey: NOTIFICATIONS_QUERY_KEY,
    queryFn: ({ signal }) => api<NotificationList>('/api/notifications', { signal }),
    enabled,
    refetchInterval: NOTIFICATIONS_POLL_IN_MS,
    staleTime: NOTIFICATIONS_POLL_IN_MS,
  });
}

/** Acknowledge or snooze one notification; the list is read again either way. */
export function useNotificationActions() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_QUERY_KEY });
  const acknowledge = useMutation({
    mutationFn: (id: string) =>
      api<Notification>(`/api/notifications/${encodeURIComponent(id)}/acknowledge`, {
        method: 'POST',
      }),
    onSettled: refresh,
  });
  const snooze = useMutation({
    mutationFn: ({ id, ...body }: SnoozeNotification & { id: string }) =>
      api<Notification>(`/api/notifications/${encodeURIComponent(id)}/snooze`, {
        method: 'POST',
        body,
      }),
    onSettled: refresh,
  });
  return { acknowledge, snooze };
}

const CHANNELS_QUERY_KEY = ['notifications', 'channels'];
const RULES_QUERY_KEY = ['notifications', 'rules'];

export function useChannels() {
  return useQuery({
    queryKey: CHANNELS_QUERY_KEY,
    queryFn: ({ signal }) =>
      api<NotificationChannelList>('/api/notifications/channels', { signal }),
    select: (list) => list.channels,
  });
}

export function useRules() {
  return useQuery({
    queryKey: RULES_QUERY_KEY,
    queryFn: ({ signal }) => api<NotificationRuleList>('/api/notifications/rules', { signal }),
    select: (list) => list.rules,
  });
}

/** Create (no id) or replace a channel; delete one; send it a test message. */
export function useChannelActions() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: CHANNELS_QUERY_KEY });
  const save = useMutation({
    mutationFn: ({ id, input }: { id?: string; input: NotificationChannelInput }) =>
      id
        ? api<NotificationChannel>(`/api/notifications/channels/${encodeURIComponent(id)}`, {
            method: 'PUT',
            body: input,
          })
        : api<NotificationChannel>('/api/notifications/channels', { method: 'POST', body: input }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: string) =>
      api<unknown>(`/api/notifications/channels/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: refresh,
  });
  const test = useMutation({
    mutationFn: (id: string) =>
      api<ChannelTestResult>(`/api/notifications/channels/${encodeURIComponent(id)}/test`, {
        method: 'POST',
      }),
  });
  return { save, remove, test };
}

export function useRuleActions() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: RULES_QUERY_KEY });
  const save = useMutation({
    mutationFn: ({ id, input }: { id?: string; input: NotificationRuleInput }) =>
      id
        ? api<NotificationRule>(`/api/notifications/rules/${encodeURIComponent(id)}`, {
            method: 'PUT',
            body: input,
          })
        : api<NotificationRule>('/api/notifications/rules', { method: 'POST', body: input }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: string) =>
      api<unknown>(`/api/notifications/rules/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: refresh,
  });
  return { save, remove };
}
