import { captureBenchmarkOutput } from './capture-output';
import { draftBodyNear, formsAbuseBenchmark } from './forms-abuse';
import { useFormsTestDatabase } from './forms-test-database.fixture';

/** A tiny run of forms-abuse against the built forms-api: both phases, every answer as expected, the JSON shape. */
describe('forms-abuse benchmark', () => {
  const db = useFormsTestDatabase();
  const { results } = captureBenchmarkOutput();

  it('builds a draft body within 64 bytes under the limit', () => {
    for (const max of [16 * 1024, 256 * 1024, 1024 * 1024]) {
      const bytes = Buffer.byteLength(draftBodyNear(max));
      expect(bytes).toBeLessThanOrEqual(max);
      expect(bytes).toBeGreaterThanOrEqual(max - 64);
    }
  });

  it('uploads: every upload 201, RSS start/peak/after; drafts: every PUT 200, p95 alone and loaded', async () => {
    const args = ['--database-url', db.url(), '--uploads', '2', '--upload-mib', '1', '--settle-seconds', '1'];
    await formsAbuseBenchmark.run([...args, '--connections', '2', '--duration', '2', '--warmup', '0']);
    const [uploads, drafts, ...rest] = results();
    expect(rest).toEqual([]);

    expect(uploads).toMatchObject({
      bench: 'forms-abuse',
      phase: 'uploads',
      uploads: 2,
      upload_bytes: 1024 * 1024,
      settle_seconds: 1,
      status_counts: { 201: 2 },
    });
    for (const key of ['rss_start_mb', 'rss_after_uploads_mb', 'rss_after_settle_mb']) expect(uploads[key]).toBeGreaterThan(0);
    expect(uploads.rss_peak_mb).toBeGreaterThanOrEqual(uploads.rss_start_mb as number);
    expect(uploads.rss_peak_to_start).toBeGreaterThanOrEqual(1);

    expect(drafts).toMatchObject({ bench: 'forms-abuse', phase: 'drafts', route: 'GET /f/{public_id}', connections: 2, duration_s: 2 });
    const { alone, loaded, draft_put: put } = drafts as Record<string, Record<string, unknown>>;
    for (const run of [alone, loaded]) {
      expect(Object.keys(run.status_counts as object)).toEqual(['200']);
      expect(run.errors).toBe(0);
      expect(run.latency_p95_ms).toBeGreaterThanOrEqual(run.latency_p50_ms as number);
      expect(run.latency_p99_ms).toBeGreaterThanOrEqual(run.latency_p95_ms as number);
    }
    expect(drafts.p95_loaded_to_alone).toBeCloseTo((loaded.latency_p95_ms as number) / (alone.latency_p95_ms as number), 1);
    expect(put).toMatchObject({ clients: 3, max_draft_bytes: 256 * 1024, stored_bytes: 256 * 1024 });
    // The stored draft (ids minted, defaults filled in) is larger than the body that makes it.
    expect(put.body_bytes).toBeGreaterThan(128 * 1024);
    expect(put.body_bytes).toBeLessThan(256 * 1024);
    expect(Object.keys(put.status_counts as object)).toEqual(['200']);
    expect((put.status_counts as Record<string, number>)['200']).toBeGreaterThan(0);
  }, 30_000);
});
