// Jest for `npm run mutation` (Stryker): the main config, narrowed to the tests that exercise the mutated libs.
// The e2e files boot email-api and reach the libs over HTTP; race tests stay out (timing-dependent under mutation).
const base = require('./jest.config');

module.exports = {
  ...base,
  roots: ['<rootDir>/apps', '<rootDir>/libs'],
  testMatch: [
    '<rootDir>/libs/{auth,pagination,errors,idempotency,rate-limit}/src/**/*.{spec,int-spec}.ts',
    '<rootDir>/libs/email/{access,audience}/src/**/*.{spec,int-spec}.ts',
    '<rootDir>/apps/email-api/test/{subscribers,tags-and-fields,error-envelope,platform-and-auth,rate-limit}.e2e-spec.ts',
  ],
  // Stryker starts jest once per mutant: migrate the template databases on the first start only.
  globalSetup: '<rootDir>/tools/mutation/global-setup-once.js',
};
