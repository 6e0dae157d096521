// Stryker's jest runner calls jest (and so its globalSetup) for every mutant, in one long-lived process per
// worker: the template databases are checked and migrated on the first call, then left as they are.
const globalSetup = require('../jest/global-setup');

module.exports = async function globalSetupOnce() {
  if (process.env.POSTLINE_MUTATION_TEMPLATES_READY) return;
  await globalSetup();
  process.env.POSTLINE_MUTATION_TEMPLATES_READY = '1';
};
