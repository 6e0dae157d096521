// npm test: installs if needed, generates Prisma clients, type-checks, then runs every jest tier
// (unit, integration against real PostgreSQL/Redis, e2e over HTTP). Extra args go to jest.
import { bin, install, log, prepare, requireServices, run } from './lib/env.mjs';

await requireServices();
install();
prepare({ build: true });
log('▸ type-checking');
run(bin('tsc'), ['-p', 'tsconfig.json']);
log('▸ running tests');
run(bin('jest'), ['--ci', ...process.argv.slice(2)], { env: { ...process.env, NODE_ENV: 'test' } });
