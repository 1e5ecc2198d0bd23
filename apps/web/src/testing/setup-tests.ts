import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';

import { mockServer } from './mocks/server';

// Lazy routes and dialogs load slowly on a busy 2-core CI machine.
// Fluent's focus manager (tabster) sets aria-hidden on everything outside an open dialog, and in
// jsdom it sometimes marks the dialog's own surface too, depending on timing; role queries would
// then miss elements a user sees. Accessibility of the real tree is checked by axe in the e2e suite.
configure({ asyncUtilTimeout: 15_000, defaultHidden: true });

// jsdom has no ResizeObserver; Fluent's MessageBar, tab list and accordion and the virtualised
// comparison results observe their size with one.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

beforeAll(() => mockServer.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  cleanup();
  mockServer.resetHandlers();
  localStorage.clear();
  sessionStorage.clear();
});
afterAll(() => mockServer.close());
