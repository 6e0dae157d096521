// The three test tiers as jest projects, so `--selectProjects unit|int|e2e` picks tiers and one run can take all:
// *.spec.ts (unit), *.int-spec.ts (real PostgreSQL/Redis), *.e2e-spec.ts (HTTP, built apps).
const { project, run } = require('./tools/jest/project');

// Only the tiers that need PostgreSQL and Redis name the global setup; jest runs one path once however many
// selected projects share it, and not at all for a unit-only run.
const servicesSetup = '<rootDir>/tools/jest/global-setup.js';

module.exports = {
  ...run,
  projects: [
    { ...project, displayName: 'unit', testMatch: ['**/*.spec.ts'] },
    { ...project, displayName: 'int', testMatch: ['**/*.int-spec.ts'], globalSetup: servicesSetup },
    { ...project, displayName: 'e2e', testMatch: ['**/*.e2e-spec.ts'], globalSetup: servicesSetup },
  ],
};
