// `generate`: runs the real `prisma generate` for each schema, offline.
//
// Before running any of generate/migrate/db/validate/format/version, the Prisma CLI calls
// @prisma/engines' ensureNeededBinariesExist(), which downloads the native schema-engine binary
// from binaries.prisma.sh unless it is already present -- or unless PRISMA_SCHEMA_ENGINE_BINARY
// points at an existing file. `prisma generate` itself never runs that binary (it uses the
// WebAssembly build of prisma-schema bundled in the CLI), so we point the variable at a stub
// that only prints an explanation and fails if something ever does execute it.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

import { repoRoot } from './services.mjs';

const require = createRequire(import.meta.url);

export const SCHEMA_ENGINE_STUB = path.join(repoRoot, 'tools/db/schema-engine-stub.sh');

/** Environment for running the Prisma CLI without network access. */
export function offlinePrismaEnv(env = process.env) {
  return {
    ...env,
    PRISMA_SCHEMA_ENGINE_BINARY: env.PRISMA_SCHEMA_ENGINE_BINARY || SCHEMA_ENGINE_STUB,
    CHECKPOINT_DISABLE: '1', // no telemetry / update check request
    PRISMA_HIDE_UPDATE_MESSAGE: '1',
  };
}

export function prismaCliPath() {
  return path.join(path.dirname(require.resolve('prisma/package.json')), 'build/index.js');
}

/** Runs `prisma generate --config <service config>`; resolves with its combined output. */
export function generateService(svc) {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [prismaCliPath(), 'generate', '--config', svc.configPath], {
      cwd: repoRoot,
      env: offlinePrismaEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const secs = ((performance.now() - started) / 1000).toFixed(2);
      if (code === 0) resolve({ output, secs });
      else {
        const err = new Error(`${svc.name}: prisma generate failed (${signal ?? `exit ${code}`}):\n${output.trim()}`);
        reject(err);
      }
    });
  });
}
