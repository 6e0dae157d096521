// Jest for `npm run mutation` (Stryker): the main config, narrowed to the unit and integration tests of the mutated
// libs. e2e files stay out: every request crosses the guards and the error filter, so each mutant there would boot
// every app again; stryker.subscribers.config.mjs uses the subscriber e2e files for the one service that needs them.
const { project, run } = require('./tools/jest/project');

module.exports = {
  ...project,
  ...run,
  roots: ['<rootDir>/libs'],
  testMatch: [
    '<rootDir>/libs/{auth,pagination,errors,idempotency,rate-limit}/src/**/*.{spec,int-spec}.ts',
    '<rootDir>/libs/email/access/src/**/*.{spec,int-spec}.ts',
  ],
  // Stryker starts jest once per mutant: migrate the template databases on the first start only.
  globalSetup: '<rootDir>/tools/mutation/global-setup-once.js',
};
