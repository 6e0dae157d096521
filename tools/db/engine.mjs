// Loads Prisma's WebAssembly schema engine (@prisma/schema-engine-wasm) and drives it through
// @prisma/adapter-pg, so migrations can be diffed and applied without the native schema-engine
// binary (which cannot be downloaded in this environment).
//
// The package's own entry point does `import * as wasm from "./schema_engine_bg.wasm"`, which on
// Node 20 needs --experimental-wasm-modules. We do the same wiring by hand instead (compile the
// .wasm, hand it the JS glue as its import object, call __wbg_set_wasm / __wbindgen_start), so no
// flag is needed.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { pgErrorMessage, withDatabase, withMaintenanceClient, quoteIdent } from './pg.mjs';

const require = createRequire(import.meta.url);

let enginePromise;

/** Returns the initialised wasm-bindgen module of @prisma/schema-engine-wasm (cached). */
export function loadSchemaEngineModule() {
  enginePromise ??= (async () => {
    const gluePath = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg');
    const glue = await import(pathToFileURL(gluePath).href);
    // DB_SCHEMA_ENGINE_WASM may point at another build of the same wasm-bindgen ABI, e.g. the one
    // the Prisma CLI ships in node_modules/prisma/build/schema_engine_bg.wasm.
    const wasmPath = process.env.DB_SCHEMA_ENGINE_WASM || path.join(path.dirname(gluePath), 'schema_engine_bg.wasm');
    const module = await WebAssembly.compile(await readFile(wasmPath));
    const { exports } = await WebAssembly.instantiate(module, { './schema_engine_bg.js': glue });
    glue.__wbg_set_wasm(exports);
    exports.__wbindgen_start();
    return glue;
  })();
  return enginePromise;
}

/**
 * A migration-aware driver adapter factory (the shape @prisma/driver-adapter-utils'
 * bindMigrationAwareSqlAdapterFactory expects) built on @prisma/adapter-pg, with two fixes
 * over PrismaPg's own factory:
 *
 * - executeScript sends the whole migration script as ONE simple-protocol query on one
 *   connection (like the native schema engine does), instead of PrismaPg's naive split on ';'
 *   across pooled connections, which breaks on ';' inside strings, $$ bodies, comments, and
 *   loses atomicity.
 * - connectToShadowDb creates the temporary database itself and connects to it. PrismaPg's
 *   version passes `{ connectionString, database }` to pg, where the connectionString's database
 *   wins, so the "shadow" connection would silently point at the main database.
 */
export class MigrationAdapterFactory {
  provider = 'postgres';
  adapterName = '@prisma/adapter-pg';

  /** @param {string} url main database URL */
  constructor(url, { log = () => {} } = {}) {
    this.url = url;
    this.log = log;
    this.shadowDatabases = new Set();
    this.adapters = new Set();
  }

  async connect() {
    return this.track(await connectAdapter(this.url, this));
  }

  /** Remembers the adapter so cleanup() can close its pool if the engine does not. */
  track(adapter) {
    const dispose = adapter.dispose.bind(adapter);
    let disposed = false;
    adapter.dispose = async () => {
      if (disposed) return;
      disposed = true;
      this.adapters.delete(adapter);
      await dispose();
    };
    this.adapters.add(adapter);
    return adapter;
  }

  async connectToShadowDb() {
    const name = `prisma_migrate_shadow_db_${globalThis.crypto.randomUUID().replaceAll('-', '_')}`;
    await withMaintenanceClient(this.url, (c) => c.query(`CREATE DATABASE ${quoteIdent(name)}`));
    this.shadowDatabases.add(name);
    this.log(`created shadow database ${name}`);
    const adapter = this.track(await connectAdapter(withDatabase(this.url, name), this));
    const dispose = adapter.dispose.bind(adapter);
    adapter.dispose = async () => {
      await dispose();
      await this.dropShadowDatabase(name);
    };
    return adapter;
  }

  async dropShadowDatabase(name) {
    if (!this.shadowDatabases.has(name)) return;
    await withMaintenanceClient(this.url, (c) => c.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`));
    this.shadowDatabases.delete(name);
    this.log(`dropped shadow database ${name}`);
  }

  /** Closes pools and drops shadow databases the engine did not dispose of. */
  async cleanup() {
    for (const adapter of [...this.adapters]) {
      await adapter.dispose().catch(() => {});
    }
    for (const name of [...this.shadowDatabases]) {
      try {
        await this.dropShadowDatabase(name);
      } catch (e) {
        process.stderr.write(`warning: could not drop shadow database ${name}: ${pgErrorMessage(e)}\n`);
      }
    }
  }
}

// PostgreSQL's internal single-byte type "char" (OID 18, used by catalog columns such as
// pg_class.relkind / pg_constraint.contype) is not mapped by @prisma/adapter-pg and makes it throw
// UnsupportedNativeDataType, so the engine cannot introspect a database ("Column type 'char' could
// not be deserialized"), which diffing from the migrations folder needs. pg returns such values
// as JS strings; we report them as TEXT. Patched on the shared query class (also used by
// transactions), in this tool's process only.
const PG_INTERNAL_CHAR_OID = 18;
const PG_TEXT_OID = 25;
let queryablePatched = false;
function patchQueryable(adapter) {
  if (queryablePatched) return;
  let proto = Object.getPrototypeOf(adapter);
  while (proto && !Object.prototype.hasOwnProperty.call(proto, 'performIO')) proto = Object.getPrototypeOf(proto);
  if (!proto) throw new Error('unexpected @prisma/adapter-pg internals: performIO not found');
  const performIO = proto.performIO;
  proto.performIO = async function patchedPerformIO(query) {
    const result = await performIO.call(this, query);
    for (const field of result?.fields ?? []) {
      if (field.dataTypeID === PG_INTERNAL_CHAR_OID) field.dataTypeID = PG_TEXT_OID;
    }
    return result;
  };
  queryablePatched = true;
}

async function connectAdapter(url, factory) {
  const { PrismaPg } = require('@prisma/adapter-pg');
  const adapter = await new PrismaPg({ connectionString: url }).connect();
  patchQueryable(adapter);
  adapter.executeScript = async (script) => {
    try {
      // No parameters => pg uses the simple query protocol, which accepts many statements and
      // runs them as one implicit transaction (unless the script has its own BEGIN/COMMIT).
      await adapter.underlyingDriver().query(script);
    } catch (error) {
      // The engine only reports "external connector error" plus a short summary; keep the
      // original PostgreSQL error so callers can show code, message, detail and line.
      factory.lastScriptError = { error, script };
      adapter.onError(error); // rethrows as DriverAdapterError so the engine reports it properly
    }
  };
  return adapter;
}

/**
 * Creates a SchemaEngine whose main connection is `url`. Returns { engine, call, factory, close }:
 * call(method, input) runs an engine method with readable errors. Always call close() (frees the
 * engine, closes pools, drops leftover shadow databases).
 */
export async function openSchemaEngine(url, { log = () => {}, datamodels } = {}) {
  const { SchemaEngine } = await loadSchemaEngineModule();
  const { bindMigrationAwareSqlAdapterFactory } = require('@prisma/driver-adapter-utils');
  const factory = new MigrationAdapterFactory(url, { log });
  const bound = bindMigrationAwareSqlAdapterFactory(factory);
  const engineLog = (msg) => log(`engine: ${String(msg).trimEnd()}`);
  let engine;
  try {
    engine = await SchemaEngine.new({ datamodels }, engineLog, bound);
  } catch (e) {
    await factory.cleanup();
    throw unwrapEngineError(e, bound);
  }
  const call = async (method, input) => {
    factory.lastScriptError = undefined;
    try {
      return await engine[method](input);
    } catch (e) {
      const err = unwrapEngineError(e, bound);
      if (factory.lastScriptError) err.message += `\n${describeScriptError(factory.lastScriptError)}`;
      throw err;
    }
  };
  const close = async () => {
    try {
      engine.free();
    } finally {
      await factory.cleanup();
    }
  };
  return { engine, call, factory, close };
}

/** "PostgreSQL error 23505 at line 3: duplicate key value ... (detail)" */
function describeScriptError({ error, script }) {
  let where = '';
  const pos = Number(error.position);
  if (pos > 0 && typeof script === 'string') {
    where = ` at line ${script.slice(0, pos - 1).split('\n').length} of the migration script`;
  }
  const detail = [error.detail, error.hint && `hint: ${error.hint}`].filter(Boolean).join('; ');
  return `PostgreSQL error${error.code ? ` ${error.code}` : ''}${where}: ${error.message}${detail ? ` (${detail})` : ''}`;
}

/** Turns what the engine throws into an Error with a readable message. */
function unwrapEngineError(e, bound) {
  const fromRegistry = bound.errorRegistry?.lookupError?.(e);
  if (fromRegistry?.error) {
    const inner = fromRegistry.error;
    const err = new Error(inner?.message ?? String(inner));
    err.cause = inner;
    return err;
  }
  if (e instanceof Error) {
    if (e.code && !e.message.includes(e.code)) e.message = `${e.code}: ${e.message}`;
    return e;
  }
  return new Error(typeof e === 'string' ? e : JSON.stringify(e));
}
