// The Prisma schemas managed by scripts/db.mjs.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function service(name, envVar) {
  const dir = path.join(repoRoot, 'prisma', name);
  return {
    name,
    dir,
    schemaPath: path.join(dir, 'schema.prisma'),
    configPath: path.join(dir, 'prisma.config.ts'),
    migrationsDir: path.join(dir, 'migrations'),
    envVar,
    defaultUrl: `postgresql://postgres@127.0.0.1:5432/${name}`,
  };
}

export const SERVICES = {
  email: service('email', 'EMAIL_DATABASE_URL'),
  forms: service('forms', 'FORMS_DATABASE_URL'),
};

/** Resolves --service (email|forms|all) to a list of services. */
export function selectServices(name = 'all') {
  if (name === 'all') return Object.values(SERVICES);
  const svc = SERVICES[name];
  if (!svc) {
    throw new UsageError(`unknown service "${name}" (expected one of: ${Object.keys(SERVICES).join(', ')}, all)`);
  }
  return [svc];
}

/** Database URL for a service: --url, then $<SERVICE>_DATABASE_URL, then the local default. */
export function databaseUrl(svc, override) {
  return override || process.env[svc.envVar] || svc.defaultUrl;
}

export class UsageError extends Error {}
