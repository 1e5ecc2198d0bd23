import { setupServer } from 'msw/node';

/** Every request a component test makes must have a handler (onUnhandledRequest: 'error'). */
export const mockServer = setupServer();
