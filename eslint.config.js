// The one lint config: code quality plus the import-direction rules of ARCHITECTURE §2.
import fs from 'node:fs';

import js from '@eslint/js';
import vitest from '@vitest/eslint-plugin';
import importX from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

import gitThroughRepository from './scripts/eslint/git-through-repository.js';

const webFeatures = fs.existsSync('apps/web/src/features')
  ? fs.readdirSync('apps/web/src/features')
  : [];

/** The files linted with type information: sources, tests and scripts of every workspace. */
const typedFiles = ['apps/*/src/**/*.{ts,tsx}', 'packages/*/src/**/*.{ts,tsx}', 'scripts/**/*.ts'];

const noDeepPackageImports = {
  group: ['@aegis/*/src/*', '**/packages/*/src/*', '**/apps/*/src/*'],
  message: 'import a package by name or a declared subpath',
};

/** Packages each layer may import, besides third-party libraries (ARCHITECTURE §2). */
const layers = [
  {
    files: ['packages/domain/src/**'],
    banned: ['@aegis/*', 'node:*', 'fs', 'path', 'react', 'react-dom', 'fastify', '@azure/*'],
    why: 'domain is pure: no I/O, no UI, nothing of ours',
  },
  {
    files: ['packages/contracts/src/**'],
    banned: [
      '@aegis/insights',
      '@aegis/connectors*',
      '@aegis/emulators',
      '@aegis/reports',
      '@aegis/server',
      '@aegis/web',
      'node:*',
      'react',
    ],
    why: 'contracts depend on domain only',
  },
  {
    files: ['packages/reports/src/**'],
    banned: [
      '@aegis/insights',
      '@aegis/connectors*',
      '@aegis/emulators',
      '@aegis/contracts',
      '@aegis/server',
      '@aegis/web',
      'react',
    ],
    why: 'reports depend on domain only',
  },
  {
    files: ['packages/connectors/src/**'],
    banned: [
      '@aegis/insights',
      '@aegis/emulators',
      '@aegis/contracts',
      '@aegis/reports',
      '@aegis/server',
      '@aegis/web',
      'react',
    ],
    why: 'connectors depend on domain only',
  },
  {
    files: ['packages/pipeline-tasks/src/**'],
    banned: [
      '@aegis/emulators',
      '@aegis/contracts',
      '@aegis/reports',
      '@aegis/server',
      '@aegis/web',
      'react',
    ],
    why: 'pipeline tasks depend on domain, connectors and insights only',
  },
  {
    files: ['packages/insights/src/**'],
    banned: ['@aegis/emulators', '@aegis/server', '@aegis/web', 'react'],
    why: 'insights depend on domain, connectors, reports and the contracts types only',
  },
  {
    files: ['packages/emulators/src/**'],
    banned: [
      '@aegis/insights',
      '@aegis/contracts',
      '@aegis/reports',
      '@aegis/server',
      '@aegis/web',
      'react',
    ],
    why: 'emulators depend on domain and connectors only',
  },
  {
    files: ['apps/server/src/**'],
    banned: ['@aegis/emulators', '@aegis/web', 'react'],
    why: 'the server knows ports and adapters, never the emulators',
  },
  {
    files: ['apps/web/src/**'],
    banned: [
      '@aegis/connectors*',
      '@aegis/emulators',
      '@aegis/insights',
      '@aegis/server',
      'node:*',
      'fastify',
    ],
    why: 'the browser talks to the Aegis API only',
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '.aegis/**',
      'coverage/**',
      'test-results/**',
      'playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    languageOptions: { globals: { ...globals.node } },
    settings: {
      // import-x reads the modules an import names (no-cycle) with this parser
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.json'] } },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'import-x/order': [
        'error',
        {
          'newlines-between': 'always',
          alphabetize: { order: 'asc' },
          groups: ['builtin', 'external', 'internal', 'parent', 'sibling', 'index'],
        },
      ],
      'import-x/no-duplicates': 'error',
      // no import cycles, not even of types (issue 31): a cycle hides which module owns what
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'no-restricted-imports': ['error', { patterns: [noDeepPackageImports] }],
    },
  },
  ...layers.map(({ files, banned, why }) => ({
    files,
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: banned, message: why }, noDeepPackageImports] },
      ],
    },
  })),
  {
    // a pipeline task bundles the insights: the contracts' zod schemas stay on the server
    files: ['packages/insights/src/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@aegis/contracts',
              allowTypeImports: true,
              message: 'insights use the contracts for types only',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/src/**'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      ...jsxA11y.configs.recommended.rules,
      // A scrollable region must be reachable by keyboard (WCAG 2.1.1, axe scrollable-region-focusable).
      'jsx-a11y/no-noninteractive-tabindex': ['error', { roles: ['tabpanel', 'region'] }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...webFeatures.map((feature) => ({
              target: `./apps/web/src/features/${feature}`,
              from: './apps/web/src/features',
              except: [`./${feature}`],
              message:
                'features never import each other: share through components/, lib/ or a package',
            })),
            { target: './apps/web/src/features', from: './apps/web/src/app' },
            {
              target: ['components', 'hooks', 'lib', 'config'].map(
                (dir) => `./apps/web/src/${dir}`,
              ),
              from: ['./apps/web/src/features', './apps/web/src/app'],
            },
          ],
        },
      ],
    },
  },
  // Type-aware rules read each package's TypeScript program (issue 31): typescript-eslint's whole
  // `recommendedTypeChecked` set on sources, tests and scripts.
  ...tseslint.configs.recommendedTypeCheckedOnly.map((config) => ({
    ...config,
    files: typedFiles,
  })),
  {
    files: typedFiles,
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
  },
  {
    // Git has one door (ADR 052): the DevOps client's git methods only inside the repository door
    // (and the client itself). Needs types, to tell `devops.push(repo, …)` from `lines.push(…)`.
    files: typedFiles,
    ignores: [
      '**/*.test.ts',
      '**/*.test.tsx',
      'packages/connectors/src/devops/**',
      'packages/connectors/src/repository/**',
      // the connector's contract suite: it tests the git methods themselves
      'packages/connectors/src/testing/devops-client-contract.ts',
    ],
    plugins: { aegis: { rules: { 'git-through-repository': gitThroughRepository } } },
    rules: { 'aegis/git-through-repository': 'error' },
  },
  {
    // Each package declares what its code imports (issue 31): the server bundle and the pipeline
    // task file resolve npm packages from the importing package (ADR 053), not from the root.
    files: ['apps/*/src/**/*.{ts,tsx}', 'packages/*/src/**/*.{ts,tsx}'],
    ignores: [
      '**/*.test.ts',
      '**/*.test.tsx',
      '**/*.live.ts',
      '**/testing/**',
      '**/test-support.ts',
    ],
    rules: { 'import-x/no-extraneous-dependencies': ['error', { devDependencies: false }] },
  },
  {
    files: ['**/*.test.ts', '**/*.test.tsx'],
    plugins: { vitest },
    rules: { ...vitest.configs.recommended.rules },
  },
);
