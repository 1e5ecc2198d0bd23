import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: [
            'packages/*/src/**/*.test.ts',
            'apps/server/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['apps/web/src/**/*.test.tsx', 'apps/web/src/**/*.test.ts'],
          setupFiles: ['apps/web/src/testing/setup-tests.ts'],
          // Fluent UI is thousands of modules that every isolated file would import again; one bundle
          // per run is imported instead (ADR 083). Only Fluent: other libraries bundled here changed
          // what a test saw, and React stays outside so that tests and Fluent share one copy.
          deps: {
            optimizer: {
              client: {
                enabled: true,
                include: [
                  '@fluentui/react-charts',
                  '@fluentui/react-components',
                  '@fluentui/react-icons',
                ],
                exclude: ['react-dom'],
              },
            },
          },
          // jsdom plus typing-by-keystroke is slow on a loaded 2-core machine.
          testTimeout: 30_000,
        },
      },
    ],
  },
});
