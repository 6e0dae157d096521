// npm test: installs if needed, generates Prisma clients, builds, then lints, checks formatting and migrations, type-checks and runs
// every jest tier (unit, integration against real PostgreSQL/Redis, e2e over HTTP). Extra args go to jest.
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bin, install, log, prepare, requireServices, run } from './lib/env.mjs';

await requireServices();
install();
prepare({ build: true });
log('▸ linting');
run(bin('eslint'), ['.']);
log('▸ checking formatting (fix with npm run format)');
run(bin('prettier'), ['--check', '--log-level=warn', '.']);
log('▸ checking that every schema.prisma change has a migration');
run(process.execPath, ['scripts/db.mjs', 'diff', '--check', '--service', 'all']);
log('▸ type-checking');
run(bin('tsc'), ['-p', 'tsconfig.json']);
log('▸ running tests');
const results = path.join(tmpdir(), `jest-results-${process.pid}.json`);
process.on('exit', () => {
  // One plain closing line with the counts, whatever the outcome.
  try {
    const { numPassedTests, numFailedTests, numPendingTests } = JSON.parse(readFileSync(results, 'utf8'));
    process.stdout.write(`tests: ${numPassedTests} passed, ${numFailedTests} failed, ${numPendingTests} skipped\n`);
    rmSync(results, { force: true });
  } catch {
    // jest did not get far enough to write results; its own output says why
  }
});
run(bin('jest'), ['--ci', '--json', `--outputFile=${results}`, ...process.argv.slice(2)], { env: { ...process.env, NODE_ENV: 'test' } });
