import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '.data/**', 'docs/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
      // `callback?.(await write())` skips the write altogether when there is no callback (an optional
      // call does not evaluate its arguments): await into a variable first, then call.
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ChainExpression > CallExpression > AwaitExpression.arguments',
          message: 'An optional call skips its arguments when the callee is missing: await into a variable first, then call.',
        },
      ],
    },
  },
  { files: ['scripts/**', 'e2e/**', 'examples/**', '**/*.test.ts', 'server/test/**'], rules: { 'no-console': 'off' } },
  {
    // Browser specs open contexts through e2e/support/browser.ts, which keeps the service worker out unless
    // the spec asks for it (the worker's precache in every context slowed the whole suite).
    files: ['e2e/**'],
    rules: {
      'no-restricted-properties': ['error', { object: 'browser', property: 'newContext', message: "Use newContext(browser, …) or newPerson from e2e/support/browser.ts (service workers blocked unless the spec allows them)." }],
    },
  },
);
