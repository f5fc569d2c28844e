import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import globals from 'globals';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** Node-only folders that the browser bundle must never import. */
/** Node-only code that the browser bundle must never import (src/shared is both's, but this). */
const NODE_ONLY = [
  '**/sandbox/**',
  '**/server/**',
  '**/main/**',
  '**/shared/ascii-json*',
  '**/shared/sqlite/**',
];

/**
 * The layers, kept by `import-x/no-restricted-paths` (ARCHITECTURE.md draws them). Each zone
 * names a target and what it must not import (`from`), with the exceptions that are its own.
 */
const FEATURES = readdirSync('src/features', { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const dashboardZones = [
  // A feature never imports another feature (nor the shell that composes them).
  ...FEATURES.map((feature) => ({
    target: `./src/features/${feature}`,
    from: ['./src/features', './src/app'],
    except: [`./${feature}`],
    message:
      'A feature must not import another feature or the app shell; share through api/, lib/ or components/.',
  })),
  {
    target: ['./src/components', './src/lib'],
    from: ['./src/features', './src/app'],
    message: 'Shared code must not import a feature or the app shell.',
  },
  {
    target: './src/api',
    from: ['./src/features', './src/app', './src/components', './src/lib'],
    message: 'The data layer stands on the client alone: features, the shell and shared UI use it.',
  },
  {
    target: './src/client',
    from: ['./src/api', './src/features', './src/app', './src/components', './src/lib'],
    message: 'The API client is the ground floor: it imports nothing of the dashboard.',
  },
];

/** The sandbox, one way: routes → domain → platform → store; serializers and seed above domain. */
const SANDBOX_TOP = [
  './src/sandbox/app.ts',
  './src/sandbox/server.ts',
  './src/sandbox/index.ts',
  './src/sandbox/main.ts',
];
const SANDBOX_ROUTES = ['./src/sandbox/routes', './src/sandbox/control', './src/sandbox/webhooks'];
const SANDBOX_ABOVE_DOMAIN = [
  './src/sandbox/serializers',
  './src/sandbox/seed',
  './src/sandbox/openapi',
  './src/sandbox/context.ts',
  './src/sandbox/config.ts',
];
const sandboxZones = [
  {
    target: './src/sandbox/store',
    from: [
      ...SANDBOX_TOP,
      ...SANDBOX_ROUTES,
      ...SANDBOX_ABOVE_DOMAIN,
      './src/sandbox/domain',
      './src/sandbox/platform',
    ],
    message: 'The store is the sandbox’s ground floor: it imports no other layer.',
  },
  {
    target: './src/sandbox/platform',
    from: [...SANDBOX_TOP, ...SANDBOX_ROUTES, ...SANDBOX_ABOVE_DOMAIN, './src/sandbox/domain'],
    message: 'The platform sits under the domain: it imports only the store.',
  },
  {
    target: './src/sandbox/domain',
    from: [...SANDBOX_TOP, ...SANDBOX_ROUTES, ...SANDBOX_ABOVE_DOMAIN],
    message:
      'The domain imports only the platform and the store (hand views in, do not import them).',
  },
  {
    target: SANDBOX_ABOVE_DOMAIN,
    from: [...SANDBOX_TOP, ...SANDBOX_ROUTES],
    message: 'Serializers, seed and OpenAPI sit under the routes: they must not import them.',
  },
  {
    target: SANDBOX_ROUTES,
    from: SANDBOX_TOP,
    message: 'Routes must not import the app or the server that mount them.',
  },
];

/**
 * The Node programs: the server stands on `src/shared` and the API client alone (never the
 * sandbox, never the dashboard); `src/shared` imports nothing of ours; only the composition
 * roots in `src/main` put the server and the embedded sandbox together.
 */
const DASHBOARD = ['./src/app', './src/features', './src/components', './src/lib', './src/api'];
const nodeZones = [
  {
    target: './src/server',
    from: ['./src/sandbox', './src/main', ...DASHBOARD],
    message:
      'The server imports only src/shared and src/client (the sandbox is wired in by src/main).',
  },
  {
    target: './src/shared',
    from: ['./src/server', './src/sandbox', './src/main', './src/client', ...DASHBOARD],
    message: 'src/shared is the ground floor of the Node programs: it imports nothing of ours.',
  },
  {
    target: './src/sandbox',
    from: ['./src/server', './src/main', ...DASHBOARD],
    message: 'The sandbox stands alone: it imports only src/shared and src/client.',
  },
];

export default tseslint.config(
  {
    ignores: [
      'dist',
      'node_modules',
      '.sandbox',
      'coverage',
      'test-results',
      'playwright-report',
      'test/e2e/screenshots',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.json', '.css'] }),
      ],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        { zones: [...dashboardZones, ...sandboxZones, ...nodeZones] },
      ],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: [
      'src/sandbox/**',
      'src/server/**',
      'src/main/**',
      'src/shared/ascii-json.ts',
      'src/shared/sqlite/**',
      // The server's checks of the show ledger's bodies: the browser imports their types only.
      'src/shared/show-bodies.ts',
    ],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // This warns that TanStack Virtual cannot be memoized by the React Compiler; we do not
      // run the compiler, so the warning has nothing to act on.
      'react-hooks/incompatible-library': 'off',
      'no-restricted-imports': [
        'error',
        {
          // One classic zod schema anywhere in the browser bundle carries every string format
          // of zod into the first page's chunk (see README, "The dashboard").
          paths: [{ name: 'zod', message: "Browser code uses 'zod/mini'." }],
          patterns: [
            { group: NODE_ONLY, message: 'Browser code must not import Node-only code.' },
            { group: ['node:*'], message: 'Browser code must not import Node built-ins.' },
          ],
        },
      ],
    },
  },
);
