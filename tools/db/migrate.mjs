// `migrate`: the equivalent of `prisma migrate deploy`, run through the WebAssembly schema engine.
import { openSchemaEngine } from './engine.mjs';
import { assertReadable, listMigrations, SCHEMA_FILTER } from './migrations.mjs';
import { databaseName, ensureDatabase, redact } from './pg.mjs';
import { databaseUrl } from './services.mjs';

export async function migrateService(svc, { url: urlOverride, log, debug }) {
  const url = databaseUrl(svc, urlOverride);
  const started = performance.now();
  const list = await listMigrations(svc.migrationsDir);
  assertReadable(list);
  const found = list.migrationDirectories.length;

  const created = await ensureDatabase(url).catch((e) => {
    e.message = `${svc.name}: ${e.message}`;
    throw e;
  });
  if (created) log(`${svc.name}: created database "${databaseName(url)}" (${redact(url)})`);

  if (found === 0) {
    log(`${svc.name}: no migrations found in ${rel(svc.migrationsDir)}; nothing to apply`);
    return { applied: [] };
  }
  if (list.lockfile.content === null) {
    throw new Error(`${svc.name}: ${rel(svc.migrationsDir)}/migration_lock.toml is missing`);
  }

  const { call, close } = await openSchemaEngine(url, { log: debug });
  try {
    // Same read-only check `prisma migrate status` does; used here only to warn.
    const diag = await call('diagnoseMigrationHistory', {
      migrationsList: list,
      optInToShadowDatabase: false,
      filters: SCHEMA_FILTER,
    });
    for (const name of diag.editedMigrationNames ?? []) {
      log(`${svc.name}: warning: migration ${name} was modified after it was applied (checksum differs)`);
    }
    const history = diag.history;
    if (history?.diagnostic === 'migrationsDirectoryIsBehind' || history?.diagnostic === 'historiesDiverge') {
      const missing = history.unpersistedMigrationNames ?? [];
      if (missing.length) {
        log(`${svc.name}: warning: applied in the database but missing locally: ${missing.join(', ')}`);
      }
    }

    const { appliedMigrationNames } = await call('applyMigrations', {
      migrationsList: list,
      filters: SCHEMA_FILTER,
    });
    const secs = ((performance.now() - started) / 1000).toFixed(2);
    const where = `${databaseName(url)}@${new URL(url).host}`;
    if (appliedMigrationNames.length === 0) {
      log(`${svc.name}: ${where} is up to date (${found} migration${found === 1 ? '' : 's'}, none pending) [${secs}s]`);
    } else {
      log(`${svc.name}: applied ${appliedMigrationNames.length} migration(s) to ${where} [${secs}s]:`);
      for (const name of appliedMigrationNames) log(`  ${name}`);
    }
    return { applied: appliedMigrationNames };
  } catch (e) {
    e.message = `${svc.name}: migration failed: ${e.message}`;
    throw e;
  } finally {
    await close();
  }
}

function rel(p) {
  return p.replace(`${process.cwd()}/`, '');
}

/**
 * `resolve`: the equivalent of `prisma migrate resolve --rolled-back|--applied <name>`, to
 * recover from a failed migration (which blocks all further `migrate` runs with error P3009).
 */
export async function resolveService(svc, { url: urlOverride, rolledBack, applied, log, debug }) {
  const url = databaseUrl(svc, urlOverride);
  const list = await listMigrations(svc.migrationsDir);
  const { call, close } = await openSchemaEngine(url, { log: debug });
  try {
    if (rolledBack) {
      await call('markMigrationRolledBack', { migrationName: rolledBack });
      log(`${svc.name}: marked ${rolledBack} as rolled back; fix or replace it, then run migrate again`);
    }
    if (applied) {
      assertReadable(list);
      await call('markMigrationApplied', { migrationName: applied, migrationsList: list });
      log(`${svc.name}: recorded ${applied} as applied (its SQL was NOT run)`);
    }
  } catch (e) {
    e.message = `${svc.name}: resolve failed: ${e.message}`;
    throw e;
  } finally {
    await close();
  }
}
