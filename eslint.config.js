// Lint rules, including the import boundaries of DESIGN.md: islands import only src/shared and
// locales (plus React); the domain never imports routes, UI or runtime adapters.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const restrict = (patterns, message) => ['error', { patterns: patterns.map((group) => ({ group: [group], message })) }];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.wrangler/**', '.data/**', '.tmp/**', 'test-results/**', 'playwright-report/**', 'migrations/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { console: 'readonly', process: 'readonly', URL: 'readonly', Buffer: 'readonly' } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-control-regex': 'off',
    },
  },
  {
    files: ['src/islands/**'],
    rules: {
      'no-restricted-imports': restrict(
        ['**/domain/**', '**/routes/**', '**/db/**', '**/adapters/**', '**/entry/**', '**/ui/**', '**/config', '**/deps', 'drizzle-orm*', 'hono*', 'node:*'],
        'Islands import only src/shared, locales and React (DESIGN.md section 9).',
      ),
    },
  },
  {
    files: ['src/shared/**'],
    rules: {
      'no-restricted-imports': restrict(
        ['**/domain/**', '**/routes/**', '**/db/**', '**/adapters/**', '**/entry/**', '**/ui/**', '**/islands/**', 'drizzle-orm*', 'hono*', 'node:*'],
        'src/shared runs in the browser too: it may not import server code.',
      ),
    },
  },
  {
    files: ['src/domain/**'],
    rules: {
      'no-restricted-imports': restrict(
        ['**/routes/**', '**/ui/**', '**/islands/**', '**/adapters/**', '**/entry/**', 'hono', 'hono/*'],
        'The domain has no HTTP and no runtime details: never import routes, UI, adapters or Hono.',
      ),
    },
  },
  {
    // The lower layers never reach up: the database layer, the composition's ports and the
    // shared React pieces know nothing of the rules or of HTTP (issue 22).
    files: ['src/db/**', 'src/deps.ts', 'src/config.ts'],
    rules: {
      'no-restricted-imports': restrict(['**/domain/**', '**/routes/**', '**/ui/**', '**/islands/**', '**/adapters/**', '**/entry/**', 'hono', 'hono/*'], 'The database layer and the ports do not import the rules, HTTP or runtimes.'),
    },
  },
  {
    files: ['src/ui/**'],
    rules: {
      'no-restricted-imports': restrict(['**/domain/**', '**/routes/**', '**/db/**', '**/adapters/**', '**/entry/**', 'hono', 'hono/*'], 'src/ui renders what it is given: no rules, HTTP or database.'),
    },
  },
  {
    files: ['src/routes/**', 'src/app.ts'],
    rules: {
      'no-restricted-imports': restrict(['**/adapters/**', '**/entry/**'], 'Runtime details stay in src/entry and src/adapters.'),
    },
  },
);
