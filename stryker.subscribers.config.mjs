// Mutation testing of the subscriber service, which is tested over HTTP (the email-api subscriber e2e files).
// Second half of `npm run mutation`; report: reports/mutation/subscribers/mutation.html.
import libs from './stryker.config.mjs';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  ...libs,
  mutate: ['libs/email/audience/src/subscribers/subscriber.service.ts'],
  jest: {
    ...libs.jest,
    config: {
      roots: ['<rootDir>/apps/email-api', '<rootDir>/libs/email/audience'],
      testMatch: [
        '<rootDir>/apps/email-api/test/{subscribers,subscriber-events,tags-and-fields}.e2e-spec.ts',
        '<rootDir>/libs/email/audience/src/**/*.{spec,int-spec}.ts',
      ],
    },
  },
  // Each mutant boots email-api up to three times: 5 s of slack turned slow runs on a loaded machine into "timeouts".
  timeoutMS: 30_000,
  incrementalFile: 'reports/mutation/subscribers/stryker-incremental.json',
  htmlReporter: { fileName: 'reports/mutation/subscribers/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/subscribers/mutation.json' },
};
