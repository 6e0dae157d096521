import { loadConfig } from '@shared/config';
import { FormsSql } from '@forms/data-access';
import { createTestDatabase, TcpProxy, TestDatabase } from '@shared/testing';

describe('forms-api: the plain SQL pool across a PostgreSQL restart', () => {
  let db: TestDatabase;
  let proxy: TcpProxy;
  let sql: FormsSql;

  beforeAll(async () => {
    db = await createTestDatabase('forms');
    const url = new URL(db.url);
    proxy = await TcpProxy.start(Number(url.port || 5432));
    url.port = String(proxy.port);
    sql = new FormsSql(loadConfig({ NODE_ENV: 'test', FORMS_DATABASE_URL: url.toString(), DATABASE_CONNECT_TIMEOUT_MS: '2000' }));
  });

  afterAll(async () => {
    await sql?.onModuleDestroy();
    await proxy?.close();
    await db?.drop();
  });

  it('survives the server closing its idle connections, and queries again once the server is back', async () => {
    await expect(sql.query({ text: 'SELECT 1 AS one' })).resolves.toEqual([{ one: 1 }]);
    await proxy.refuse(); // cuts the idle pooled connection: unhandled, pg's pool error event would end the process
    await new Promise((resolve) => setTimeout(resolve, 100));
    await expect(sql.query({ text: 'SELECT 1 AS one' })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    await proxy.restore();
    await expect(sql.query({ text: 'SELECT 1 AS one' })).resolves.toEqual([{ one: 1 }]);
  });
});
