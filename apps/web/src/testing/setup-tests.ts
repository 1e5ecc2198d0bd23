import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';

import { mockServer } from './mocks/server';

// Lazy routes and dialogs load slowly on a busy 2-core CI machine.
configure({ asyncUtilTimeout: 15_000 });

beforeAll(() => mockServer.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  cleanup();
  mockServer.resetHandlers();
  localStorage.clear();
  sessionStorage.clear();
});
afterAll(() => mockServer.close());
