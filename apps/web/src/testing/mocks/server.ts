import type { NotificationList } from '@aegis/contracts';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';

/**
 * The header's notification centre reads its list on every signed-in screen: by default there
 * is none. Tests of the centre answer with their own handler (`mockServer.use` comes first).
 */
const noNotifications = http.get('*/api/notifications', () =>
  HttpResponse.json<NotificationList>({ notifications: [], unread: 0 }),
);

/** Every request a component test makes must have a handler (onUnhandledRequest: 'error'). */
export const mockServer = setupServer(noNotifications);
