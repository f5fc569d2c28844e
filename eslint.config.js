import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** Node-only folders that the browser bundle must never import. */
const NODE_ONLY = ['**/sandbox/**', '**/server/**'];

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
    ignores: ['src/sandbox/**', 'src/server/**'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // This warns that TanStack Virtual cannot be memoized by the React Compiler; we do not
      // run the compiler, so the warning has nothing to act on.
      'react-hooks/incompatible-library': 'off',
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: NODE_ONLY, message: 'Browser code must not import Node-only code.' },
            { group: ['node:*'], message: 'Browser code must not import Node built-ins.' },
          ],
        },
      ],
    },
  },
);
