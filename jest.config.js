// One jest run for every tier: *.spec.ts (unit), *.int-spec.ts (real PostgreSQL/Redis), *.e2e-spec.ts (HTTP).
const fs = require('node:fs');
const path = require('node:path');

const swc = JSON.parse(fs.readFileSync(path.join(__dirname, '.swcrc'), 'utf8'));
delete swc.$schema;
const { paths } = JSON.parse(fs.readFileSync(path.join(__dirname, 'tsconfig.base.json'), 'utf8')).compilerOptions;
const moduleNameMapper = Object.fromEntries(
  Object.entries(paths).map(([alias, [target]]) => [`^${alias.replace('/', '\\/')}$`, `<rootDir>/${target}`]),
);

module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/k8s', '<rootDir>/docker', '<rootDir>/tools', '<rootDir>/bench', '<rootDir>/scripts'].filter((dir) =>
    fs.existsSync(dir.replace('<rootDir>', __dirname)),
  ),
  testMatch: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts'],
  transform: { '^.+\\.(t|j)s$': ['@swc/jest', { ...swc, swcrc: false }] },
  moduleNameMapper,
  modulePathIgnorePatterns: ['<rootDir>/.*/dist/'],
  globalSetup: '<rootDir>/tools/jest/global-setup.js',
  testTimeout: 30_000,
  maxWorkers: process.env.JEST_MAX_WORKERS ?? 2,
};
