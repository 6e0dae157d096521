import { Client } from 'pg';
import { randomBytes } from 'node:crypto';

export type Service = 'email' | 'forms';

/** The server the tests use; override with TEST_DATABASE_SERVER_URL (no database name). */
export function testServerUrl(): string {
  return (process.env.TEST_DATABASE_SERVER_URL ?? 'postgresql://postgres@127.0.0.1:5432').replace(/\/+$/, '');
}

/** Migrated template each test database is cloned from (made once per run by the jest global setup). */
export function templateDatabaseName(service: Service): string {
  return `pl_test_${service}_template`;
}

async function withAdmin<T>(run: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: `${testServerUrl()}/postgres` });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** A throw-away database cloned from the migrated template: isolated, fast, dropped afterwards. */
export async function createTestDatabase(service: Service): Promise<TestDatabase> {
  // The creating process's id is in the name, so another run's clean-up leaves it alone while this process lives.
  const name = `pl_test_${service}_p${process.pid}_${randomBytes(4).toString('hex')}`;
  await withAdmin((client) => client.query(`CREATE DATABASE "${name}" TEMPLATE "${templateDatabaseName(service)}"`));
  return {
    name,
    url: `${testServerUrl()}/${name}`,
    drop: () => withAdmin((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}

/** A BullMQ/Redis key prefix of its own for one test file. */
export function uniqueQueuePrefix(): string {
  return `t${randomBytes(5).toString('hex')}`;
}

/**
 * A test database of the file's own with a client connected to it, both closed after the file's tests. Call at
 * describe level; `url` and `client` are there once the tests run.
 */
export function useTestDatabase(service: Service): { readonly url: string; readonly client: Client } {
  let db: TestDatabase;
  let client: Client;
  beforeAll(async () => {
    db = await createTestDatabase(service);
    client = new Client({ connectionString: db.url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await db?.drop();
  });
  return {
    get url() {
      return db.url;
    },
    get client() {
      return client;
    },
  };
}
