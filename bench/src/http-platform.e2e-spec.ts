import { existsSync } from 'node:fs';
import path from 'node:path';
import { createTestDatabase, TestDatabase } from '@shared/testing';
import { REPO_ROOT } from './databases';
import { captureBenchmarkOutput } from './capture-output';
import { httpPlatformBenchmark } from './http-platform';

/** A one-second run of the real benchmark against the built email-api: every route answers 200, one JSON line each. */
describe('http-platform benchmark', () => {
  let db: TestDatabase;
  const { results: output } = captureBenchmarkOutput();

  beforeAll(async () => {
    if (!existsSync(path.join(REPO_ROOT, 'apps/email-api/dist/main.js'))) throw new Error('apps/email-api is not built: run npm test (it builds first)');
    db = await createTestDatabase('email');
  });

  afterAll(async () => {
    await db?.drop();
  });

  it('prints one result line per route and the comparison, with no failed requests', async () => {
    await httpPlatformBenchmark.run(['--database-url', db.url, '--duration', '1', '--warmup', '0', '--connections', '4']);
    const results = output() as Array<{ route?: string; comparison?: string; requests: number; latency_p50_ms: number; latency_p99_ms: number }>;
    expect(results.map((r) => r.route ?? r.comparison)).toEqual(['GET /healthz', 'GET /v1', 'GET /v1/workspace', 'GET /v1/workspace minus GET /healthz']);
    for (const result of results.slice(0, 3)) {
      expect(result).toMatchObject({ bench: 'http-platform', connections: 4, non_2xx: 0, errors: 0 });
      expect(result.requests).toBeGreaterThan(0);
      expect(result.latency_p99_ms).toBeGreaterThanOrEqual(result.latency_p50_ms);
    }
  }, 60_000);

  it('rejects an unknown route before starting anything', async () => {
    await expect(httpPlatformBenchmark.run(['--database-url', db.url, '--routes', 'nope'])).rejects.toThrow(/unknown route "nope"/);
  });
});
