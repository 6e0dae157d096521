// Mutation testing of the security-relevant libs against their own unit and integration tests: `npm run mutation`
// (this suite, then stryker.subscribers.config.mjs). Scores and surviving mutants: reports/mutation/libs/mutation.html.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: [
    'libs/auth/src/**/*.ts',
    'libs/pagination/src/**/*.ts',
    'libs/errors/src/**/*.ts',
    'libs/idempotency/src/**/*.ts',
    'libs/rate-limit/src/**/*.ts',
    'libs/email/access/src/**/*.ts',
    '!**/*.spec.ts',
    '!**/*.int-spec.ts',
    '!**/index.ts',
  ],
  // pnpm does not hoist the plugins next to @stryker-mutator/core, so they are named by their resolved (ESM) entry.
  plugins: [import.meta.resolve('@stryker-mutator/jest-runner'), import.meta.resolve('@stryker-mutator/typescript-checker')],
  testRunner: 'jest',
  jest: { projectType: 'custom', configFile: 'jest.mutation.config.js' },
  checkers: ['typescript'],
  tsconfigFile: 'tsconfig.mutation.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  coverageAnalysis: 'perTest',
  ignoreStatic: true,
  concurrency: 2,
  timeoutMS: 5_000,
  incremental: true,
  incrementalFile: 'reports/mutation/libs/stryker-incremental.json',
  ignorePatterns: ['reports', '.data', '.nx', 'dist', 'coverage', 'docs', 'bench', 'k8s', 'docker'],
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/libs/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/libs/mutation.json' },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  thresholds: { high: 90, low: 80, break: null },
  tempDirName: '.stryker-tmp',
};
