// ESLint: typescript-eslint's recommended (type-aware) rules and the module boundaries of docs/architecture.md.
// Style is Prettier's: eslint-config-prettier switches off every rule that would argue with it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const root = import.meta.dirname;

export default defineConfig(
  {
    ignores: ['**/node_modules/', '**/dist/', '**/generated/', '**/coverage/', '.stryker-tmp/', 'reports/', '.nx/', '.data/'],
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // One TypeScript program per tsconfig, the same one `tsc -p tsconfig.json` checks.
        projectService: { allowDefaultProject: ['scripts/lib/*.spec.ts', 'prisma/*/prisma.config.ts'], defaultProject: 'tsconfig.json' },
        tsconfigRootDir: root,
      },
      globals: globals.node,
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Unused names: `_`-prefixed ones are deliberate (placeholders in destructuring and signatures).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // `let { a, b } = …` where only `a` changes stays one statement.
      'prefer-const': ['error', { destructuring: 'all' }],
      // Off: async methods without `await` are how this code satisfies Promise-returning interfaces (Nest hooks,
      // health checks, fakes); the promise rules below still catch promises that are dropped or misused.
      '@typescript-eslint/require-await': 'off',
      // Off: its findings here are deliberate String(input) coercions of unknown query and answer values, made right
      // before they are validated; objects in template strings are still caught by restrict-template-expressions.
      '@typescript-eslint/no-base-to-string': 'off',
    },
  },
  {
    // A service builds errors only through its registry (errorFactory), so every code it returns is listed with its
    // status and documented in docs/errors/; `new DomainError` is the registry's own mechanism.
    files: ['apps/*/src/**/*.ts', 'libs/**/src/**/*.ts'],
    ignores: ['libs/errors/src/**', '**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts', '**/*.fixture.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "NewExpression[callee.name='DomainError']", message: "Build errors with the service's registry (EmailErrors, FormsErrors, SharedErrors)." },
      ],
    },
  },
  {
    files: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts', '**/*.fixture.ts', 'apps/*/test/**', 'libs/testing/src/**'],
    rules: {
      // Off in tests: response bodies (supertest) and parsed JSON are `any`/`unknown` by nature, and the assertions
      // themselves check their shape; typing each one first would add hundreds of casts and no safety.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/restrict-template-expressions': 'off',
      // Off in tests: `expect(mock.method).toHaveBeenCalled()` passes methods around without calling them.
      '@typescript-eslint/unbound-method': 'off',
      // Async request handlers of stub servers: a failure surfaces as the failed request the test asserts on.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
    },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    extends: [tseslint.configs.disableTypeChecked],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['libs/forms/hosted-page/src/client/**/*.ts'],
    languageOptions: { globals: globals.browser },
  },
  ...moduleBoundaries(),
  prettier,
);

/**
 * The rules tools/workspace/workspace-graph.spec.ts holds, read from the same place: the Nx tags (`scope:*`, `type:*`)
 * in each workspace package's package.json. One `no-restricted-imports` block per project, since a later block
 * replaces an earlier one's options for the same rule.
 */
function moduleBoundaries() {
  const projects = workspaceProjects();
  const names = (predicate) => projects.filter(predicate).flatMap((p) => [p.name, `${p.name}/*`]);
  const prismaClient = {
    group: ['@prisma/client', '@prisma/client/*', '.prisma/client', '**/generated/client', '**/generated/client/*'],
    message: 'A generated Prisma client is imported only inside its data-access lib (use its repositories).',
  };
  const apps = (except) => ({
    group: names((p) => p.type === 'app' && p !== except),
    message: 'An app is never imported: move what both need into a lib.',
  });
  const restrictionsOf = (project) =>
    [
      apps(project),
      project.type !== 'data-access' && prismaClient,
      project.scope === 'shared' &&
        project.type !== 'app' && { group: names((p) => p.scope !== 'shared' && p.type !== 'app'), message: 'A shared lib imports only shared libs.' },
      project.scope === 'email' && { group: names((p) => p.scope === 'forms'), message: 'Email code never imports forms code.' },
      project.scope === 'forms' && { group: names((p) => p.scope === 'email'), message: 'Forms code never imports email code.' },
    ].filter((restriction) => restriction && restriction.group.length > 0);
  const rule = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
  return [{ rules: rule(restrictionsOf({})) }, ...projects.map((project) => ({ files: [`${project.dir}/**`], rules: rule(restrictionsOf(project)) }))];
}

/** Every workspace package (pnpm-workspace.yaml's globs, one level deep) with its Nx scope and type tags. */
function workspaceProjects() {
  const globs = [...readFileSync(path.join(root, 'pnpm-workspace.yaml'), 'utf8').matchAll(/^\s+-\s+['"]?([^'"\s]+)/gm)].map((m) => m[1]);
  const dirs = globs.flatMap((glob) =>
    glob.endsWith('/*') ? readdirSync(path.join(root, glob.slice(0, -2))).map((entry) => `${glob.slice(0, -2)}/${entry}`) : [glob],
  );
  return dirs
    .filter((dir) => existsSync(path.join(root, dir, 'package.json')))
    .map((dir) => {
      const { name, nx } = JSON.parse(readFileSync(path.join(root, dir, 'package.json'), 'utf8'));
      const tag = (prefix) => nx?.tags?.find((t) => t.startsWith(prefix))?.slice(prefix.length);
      return { dir, name, scope: tag('scope:'), type: tag('type:') };
    });
}
