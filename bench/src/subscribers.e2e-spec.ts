import { existsSync } from 'node:fs';
import path from 'node:path';
import { createTestDatabase, TestDatabase } from '@shared/testing';
import { authOverheadBenchmark } from './auth-overhead';
import { captureBenchmarkOutput } from './capture-output';
import { REPO_ROOT } from './databases';
import { subscribersListBenchmark } from './subscribers-list';
import { subscribersUpsertBenchmark } from './subscribers-upsert';

/**
 * One-second runs of the real benchmarks against the built email-api (and the built bare server and
 * profiler wrapper of bench/dist): they verify what they measure, and print their JSON lines.
 */
describe('subscribers-list, subscribers-upsert and auth-overhead benchmarks', () => {
  let db: TestDatabase;
  const { results } = captureBenchmarkOutput();

  beforeAll(async () => {
    for (const built of ['apps/email-api/dist/main.js', 'bench/dist/bare-subscribers-server.js', 'bench/dist/profiled-entry.js']) {
      if (!existsSync(path.join(REPO_ROOT, built))) throw new Error(`${built} is missing: run npm test (it builds first)`);
    }
    db = await createTestDatabase('email');
  });

  afterAll(async () => {
    await db?.drop();
  });

  const short = ['--database-url', '', '--duration', '1', '--warmup', '0', '--connections', '4'];
  const args = (...extra: string[]) => [...short.map((a) => (a === '' ? db.url : a)), ...extra];

  it('subscribers-list: both servers answer the expected rows; one line per measurement and a summary', async () => {
    await subscribersListBenchmark.run(args('--count', '450', '--page', '3', '--prewarm', '0'));
    const out = results();
    const measured = out.filter((r) => r.target);
    expect(measured.map((r) => `${r.target} ${r.request}`).sort()).toEqual([
      'bare-fastify after page 3',
      'bare-fastify page 1',
      'email-api after page 3',
      'email-api page 1',
    ]);
    for (const r of measured) expect(r).toMatchObject({ bench: 'subscribers-list', non_2xx: 0, errors: 0, status_counts: { 200: r.requests } });
    expect(out.at(-1)).toMatchObject({ bench: 'subscribers-list', deep_request: 'after page 3' });
    expect(out.at(-1)!.app_vs_bare_page1).toEqual(expect.any(Number));
  }, 90_000);

  it('subscribers-upsert: half 201, half 200, and the tag counter matches the tagged subscribers', async () => {
    await subscribersUpsertBenchmark.run(args('--existing', '200'));
    const [result, check] = results();
    expect(result).toMatchObject({ bench: 'subscribers-upsert', non_2xx: 0, errors: 0 });
    const counts = result.status_counts as Record<string, number>;
    expect(Math.abs((counts['200'] ?? 0) - (counts['201'] ?? 0))).toBeLessThanOrEqual(8);
    expect(check).toMatchObject({ bench: 'subscribers-upsert', check: 'tag subscriber_count', consistent: true });
    expect(check.tagged_subscribers).toBeGreaterThan(0);
    expect(check.subscribers_with_field_value).toBe(check.tagged_subscribers);
  }, 90_000);

  it('auth-overhead: every phase answers its status; the profile attributes time to the auth code', async () => {
    await authOverheadBenchmark.run(args());
    const out = results();
    const phases = out.filter((r) => r.phase);
    expect(phases.map((r) => `${r.phase}:${r.round}`)).toEqual([
      'healthz:1',
      'unauthenticated:1',
      'forbidden:1',
      'authorized:1',
      'authorized:profiled',
      'forbidden:profiled',
    ]);
    for (const r of phases) expect(r.status_counts).toEqual({ [String(r.expected_status)]: r.requests });
    const summary = out.at(-1)!;
    expect(summary.auth_us_per_request_profiled).toBeGreaterThan(0);
    expect(summary.upper_bound_cpu_us_forbidden_minus_unauthenticated).toEqual(expect.any(Number));
  }, 90_000);
});
