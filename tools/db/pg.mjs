// Small node-postgres helpers: maintenance-database access, database creation, URL handling.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const pg = require('pg');

export const MAINTENANCE_DB = 'postgres';

export function quoteIdent(name) {
  return `"${String(name).replaceAll('"', '""')}"`;
}

/** Database name from a postgres URL. */
export function databaseName(url) {
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
  if (!name) throw new Error(`database URL has no database name: ${redact(url)}`);
  return name;
}

/** The same URL pointing at another database. */
export function withDatabase(url, name) {
  const u = new URL(url);
  u.pathname = `/${encodeURIComponent(name)}`;
  return u.toString();
}

/** URL with the password hidden, for messages. */
export function redact(url) {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '<invalid URL>';
  }
}

export function pgErrorMessage(e) {
  if (!e) return 'unknown error';
  if (e instanceof AggregateError && e.errors?.length) {
    return [...new Set(e.errors.map((x) => x.message))].join('; ');
  }
  return e.message || e.code || String(e);
}

/** Runs fn(client) with a client connected to the maintenance database of url's server. */
export async function withMaintenanceClient(url, fn) {
  return withClient(withDatabase(url, MAINTENANCE_DB), fn);
}

export async function withClient(url, fn) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  client.on('error', () => {}); // errors surface through the awaited calls
  try {
    await client.connect();
  } catch (e) {
    await client.end().catch(() => {});
    const u = new URL(url);
    const who = `${decodeURIComponent(u.username) || 'default user'}@${u.host}/${databaseName(url)}`;
    const err = new Error(`cannot connect to PostgreSQL (${who}): ${pgErrorMessage(e)}`);
    err.cause = e;
    err.code = e.code === '3D000' ? 'DB_MISSING' : 'DB_UNREACHABLE';
    throw err;
  }
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Creates the database named in url if it does not exist. Returns true if it was created. */
export async function ensureDatabase(url) {
  const name = databaseName(url);
  try {
    await withClient(url, async () => {});
    return false; // exists and is reachable
  } catch (e) {
    if (e.code !== 'DB_MISSING') throw e;
  }
  return withMaintenanceClient(url, async (c) => {
    const { rowCount } = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount > 0) return false;
    try {
      await c.query(`CREATE DATABASE ${quoteIdent(name)}`);
    } catch (e) {
      if (e.code === '42P04') return false; // created concurrently
      throw new Error(`could not create database "${name}": ${pgErrorMessage(e)}`, { cause: e });
    }
    return true;
  });
}
