import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import noFolderCycle from './tools/lint-rules/src/no-folder-cycle.js';
import noImportCycle from './tools/lint-rules/src/no-import-cycle.js';
import requiresScope from './tools/lint-rules/src/requires-scope.js';

export default tseslint.config(
  { ignores: ['**/dist', '**/node_modules', '**/coverage', '.nx', '**/*.js', '**/*.mjs'] },
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          // Apps, tools and the end-to-end tests depend on libs only: the tests run the apps
          // and tools as the processes they ship as, never by importing them.
          depConstraints: [
            {
              sourceTag: 'type:app',
              onlyDependOnLibsWithTags: ['type:contracts', 'type:data-access', 'type:util'],
            },
            {
              sourceTag: 'type:tool',
              onlyDependOnLibsWithTags: ['type:contracts', 'type:data-access', 'type:util'],
            },
            {
              sourceTag: 'type:e2e',
              onlyDependOnLibsWithTags: ['type:contracts', 'type:data-access', 'type:util'],
            },
            // The deploy spec checks docker-compose.yml and the Kubernetes files against the broker
            // users of libs/messaging (broker-users.ts) and the event keys of libs/contracts.
            {
              sourceTag: 'type:deploy',
              onlyDependOnLibsWithTags: ['type:contracts', 'type:data-access'],
            },
            {
              sourceTag: 'type:data-access',
              onlyDependOnLibsWithTags: ['type:contracts', 'type:util'],
            },
            { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:contracts', 'type:util'] },
            { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: ['type:contracts'] },
            {
              sourceTag: 'scope:gateway',
              onlyDependOnLibsWithTags: ['scope:gateway', 'scope:shared'],
            },
            {
              sourceTag: 'scope:register',
              onlyDependOnLibsWithTags: ['scope:register', 'scope:shared'],
            },
            {
              sourceTag: 'scope:webhooks',
              onlyDependOnLibsWithTags: ['scope:webhooks', 'scope:shared'],
            },
            {
              sourceTag: 'scope:console',
              onlyDependOnLibsWithTags: ['scope:console', 'scope:shared'],
            },
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:e2e', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:faults', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:deploy', onlyDependOnLibsWithTags: ['scope:shared'] },
            // The read benchmark serves the register's own SQL (libs/register-sql).
            {
              sourceTag: 'scope:bench',
              onlyDependOnLibsWithTags: ['scope:register', 'scope:shared'],
            },
          ],
        },
      ],
      // validator.js's isLength (behind these) skips variation selectors, so its "characters"
      // bound no size; text limits count code points (docs/decisions.md, Sizes).
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'class-validator',
              importNames: ['Length', 'MinLength', 'MaxLength', 'isLength'],
              message: 'Use TextLength or TextField (libs/contracts/src/fields/text-length.ts).',
            },
          ],
        },
      ],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { prefer: 'type-imports', fixStyle: 'inline-type-imports' },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      // A missing value in production code is handled or reported where it is found, never
      // asserted away (queryOne in libs/persistence for rows a statement must return).
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      // Env classes annotate their defaults: decorator metadata needs the type to convert.
      '@typescript-eslint/no-inferrable-types': 'off',
      '@typescript-eslint/no-extraneous-class': 'off',
    },
  },
  {
    // In a test, `x!` on data the test itself set up fails loudly (a TypeError naming the
    // line) exactly when the assumption is wrong, which is what the test should do.
    files: [
      '**/*.spec.ts',
      '**/*.integration-spec.ts',
      '**/*.e2e-spec.ts',
      'apps/api-e2e/**/*.ts',
      'libs/testing/**/*.ts',
    ],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    // No import cycle between files, type-only imports included (Nx's rule above refuses them
    // between projects): tools/lint-rules/src/no-import-cycle.js says why not import-x/no-cycle.
    files: ['**/*.ts', '**/*.tsx'],
    plugins: {
      cycles: { rules: { 'no-import-cycle': noImportCycle, 'no-folder-cycle': noFolderCycle } },
    },
    rules: { 'cycles/no-import-cycle': 'error' },
  },
  {
    // No cycle between the folders of an app (domain folders, and the subfolders of each):
    // tools/lint-rules/src/no-folder-cycle.js.
    files: ['apps/*/src/**/*.ts', 'apps/*/src/**/*.tsx'],
    rules: { 'cycles/no-folder-cycle': 'error' },
  },
  {
    // The console's components and hooks: the Rules of Hooks, complete effect dependencies, and
    // the React Compiler's checks (purity, refs, state set in render or effects) that the
    // plugin's recommended set carries. A missing dependency is an error, not a warning: a stale
    // closure is a bug a person sees.
    files: ['apps/console/**/*.ts', 'apps/console/**/*.tsx'],
    ...reactHooks.configs.flat.recommended,
    rules: {
      ...reactHooks.configs.flat.recommended.rules,
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['apps/gateway/src/**/*.controller.ts'],
    plugins: { custodian: { rules: { 'requires-scope': requiresScope } } },
    rules: { 'custodian/requires-scope': 'error' },
  },
  prettier,
);
