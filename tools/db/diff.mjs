// `diff`: SQL from "migrations folder replayed on a temporary shadow database" to schema.prisma,
// written as a new migration folder (what `prisma migrate dev --create-only` produces).
import { readFile } from 'node:fs/promises';
import path from 'node:path';

import { openSchemaEngine } from './engine.mjs';
import { assertReadable, listMigrations, LOCKFILE_CONTENT, SCHEMA_FILTER, slugifyMigrationName, writeMigration } from './migrations.mjs';
import { MAINTENANCE_DB, withDatabase, withMaintenanceClient } from './pg.mjs';
import { databaseUrl, repoRoot, UsageError } from './services.mjs';

/**
 * Computes the pending SQL for one service. Returns { script } or { script: null } when in sync.
 * Only the shadow database (created and dropped on the server of the service URL) is written to;
 * the engine's main connection points at the maintenance database and is only read.
 */
export async function computeDiff(svc, { url: urlOverride, debug }) {
  const serverUrl = withDatabase(databaseUrl(svc, urlOverride), MAINTENANCE_DB);
  // Clear error if PostgreSQL is unreachable (the engine's own error would be vaguer).
  await withMaintenanceClient(serverUrl, async () => {}).catch((e) => {
    e.message = `${svc.name}: ${e.message}`;
    throw e;
  });

  const list = await listMigrations(svc.migrationsDir, { lockfileFallback: LOCKFILE_CONTENT });
  assertReadable(list);
  const schema = await readFile(svc.schemaPath, 'utf8');

  const { call, close } = await openSchemaEngine(serverUrl, { log: debug });
  try {
    const result = await call('diff', {
      from: { tag: 'migrations', ...list },
      to: { tag: 'schemaDatamodel', files: [{ path: path.relative(repoRoot, svc.schemaPath), content: schema }] },
      script: true,
      exitCode: true, // engine returns exitCode 2 when there is a difference, 0 when there is none
      filters: SCHEMA_FILTER,
    });
    return { script: result.exitCode === 2 ? (result.stdout ?? '') : null, list };
  } finally {
    await close();
  }
}

export async function diffService(svc, { name, url, check, log, debug }) {
  const slug = check ? null : slugifyMigrationName(name);
  if (!check && !slug) throw new UsageError('diff needs --name <name> (letters, digits, underscores)');

  const started = performance.now();
  const { script, list } = await computeDiff(svc, { url, debug });
  const secs = `[${((performance.now() - started) / 1000).toFixed(2)}s]`;
  if (script === null) {
    log(`${svc.name}: no changes ${secs}`);
    return { changed: false };
  }
  if (check) {
    log(`${svc.name}: schema.prisma has changes not covered by a migration ${secs}`);
    process.stdout.write(script);
    return { changed: true };
  }
  const folder = await writeMigration(svc.migrationsDir, slug, script, list.migrationDirectories);
  const file = path.relative(process.cwd(), path.join(svc.migrationsDir, folder, 'migration.sql'));
  log(`${svc.name}: wrote ${file} ${secs}`);
  return { changed: true, file };
}
