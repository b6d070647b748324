// Lint rules, including the import boundaries of DESIGN.md: islands import only src/shared and
// locales (plus React); the domain never imports routes, UI or runtime adapters.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Casts through `unknown` where the drivers' own types meet ours (src/db, src/adapters) only.
const NO_UNKNOWN_CAST = {
  selector: "TSAsExpression[expression.type='TSAsExpression'][expression.typeAnnotation.type='TSUnknownKeyword']",
  message: 'No casts through unknown: type the value (a guard, a narrowed context); driver glue lives in src/db and src/adapters.',
};
// A tenant-scoped query names its tenant through the scope (domain/tenants/scope.ts, issue 22).
const NO_HAND_TENANT = {
  selector: "CallExpression[callee.name='eq'][arguments.0.property.name='tenantId']",
  message: "Tenant-scoped code queries through its TenantScope: scope.own(table, ...), scope.update/delete/insert; never eq(x.tenantId, ...).",
};
// What the guards narrow (tenant, session, user) is typed by the narrowed context, never asserted.
const NO_ASSERTED_CONTEXT = [
  { selector: "TSNonNullExpression > CallExpression[callee.property.name='get']", message: 'Use a guard that narrows the context (requireAccess, tenantPage, signedInPage) instead of `!`.' },
  { selector: "TSNonNullExpression > MemberExpression[object.property.name='var']", message: 'Use a guard that narrows the context (requireAccess, tenantPage, signedInPage) instead of `!`.' },
];

// Hono's `c.var` copies every variable into a new object on each access, so handlers and guards
// read one with `c.get('x')`: a `c.var.x` or a destructuring of `c.var` pays for the copy (issue
// 23: 1-3% of a screen's CPU).
const VAR_MESSAGE = "Read one variable with c.get('name'): c.var copies all of them on every access.";
const NO_VAR_PER_READ = [
  { selector: "MemberExpression[object.type='MemberExpression'][object.property.name='var'][object.object.name='c']", message: VAR_MESSAGE },
  // `const { a, b } = c.var` copies them all too (once per page and helper: 2% of a screen's CPU).
  { selector: "VariableDeclarator[init.type='MemberExpression'][init.property.name='var'][init.object.name='c']", message: VAR_MESSAGE },
];

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
      'no-restricted-syntax': ['error', NO_UNKNOWN_CAST],
    },
  },
  {
    files: ['src/db/**', 'src/adapters/**', 'tests/**', 'bench/**', 'scripts/**'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: ['src/domain/people/**', 'src/domain/tenant-settings/**', 'src/domain/billing/**', 'src/domain/audit/**', 'src/domain/sso/**', 'src/domain/scim/**'],
    rules: { 'no-restricted-syntax': ['error', NO_UNKNOWN_CAST, NO_HAND_TENANT] },
  },
  {
    files: ['src/routes/**', 'src/app.ts'],
    rules: { 'no-restricted-syntax': ['error', NO_UNKNOWN_CAST, ...NO_ASSERTED_CONTEXT, ...NO_VAR_PER_READ] },
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
