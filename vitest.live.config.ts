// The live contract suites (`npm run test:live`, never part of `npm test`): the same checks as the
// emulator's contract tests, against a real tenant and services (scripts/test-live.ts).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    include: ['packages/*/src/**/*.live.ts', 'apps/server/test/live/*.live.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
