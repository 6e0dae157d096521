// What every jest project of the repo shares: where tests live, the swc transform and the tsconfig path aliases.
const fs = require('node:fs');
const path = require('node:path');

const rootDir = path.resolve(__dirname, '../..');
const swc = JSON.parse(fs.readFileSync(path.join(rootDir, '.swcrc'), 'utf8'));
delete swc.$schema;
const { paths } = JSON.parse(fs.readFileSync(path.join(rootDir, 'tsconfig.base.json'), 'utf8')).compilerOptions;

exports.project = {
  rootDir,
  testEnvironment: 'node',
  roots: ['apps', 'libs', 'k8s', 'docker', 'tools', 'bench', 'scripts']
    .filter((dir) => fs.existsSync(path.join(rootDir, dir)))
    .map((dir) => `<rootDir>/${dir}`),
  transform: { '^.+\\.(t|j)s$': ['@swc/jest', { ...swc, swcrc: false }] },
  // cookie 2 ships only ES modules and Fastify's inject (light-my-request) requires it; Node loads it natively, jest needs it compiled.
  transformIgnorePatterns: ['/node_modules/(?!\\.pnpm/cookie@2|cookie/)'],
  moduleNameMapper: Object.fromEntries(Object.entries(paths).map(([alias, [target]]) => [`^${alias.replace('/', '\\/')}$`, `<rootDir>/${target}`])),
  modulePathIgnorePatterns: ['<rootDir>/.*/dist/'],
};

/** Options of the whole run (not of a project). */
exports.run = {
  testTimeout: 30_000,
  maxWorkers: process.env.JEST_MAX_WORKERS ?? 2,
};
