import { captureBenchmarkOutput } from './capture-output';
import { formsXlsxExportBenchmark } from './forms-xlsx-export';
import { useFormsTestDatabase } from './forms-test-database.fixture';

/** A tiny run of forms-xlsx-export against the built forms-worker: the export completes with every row, the JSON shape. */
describe('forms-xlsx-export benchmark', () => {
  const db = useFormsTestDatabase();
  const { results } = captureBenchmarkOutput();

  it('exports every seeded submission through the worker and the bare loop, and reports the worker memory', async () => {
    await formsXlsxExportBenchmark.run(['--database-url', db.url(), '--rows', '2500']);
    const [result, ...rest] = results();
    expect(rest).toEqual([]);
    expect(result).toMatchObject({
      bench: 'forms-xlsx-export',
      rows: 2500,
      batch_rows: 1000,
      goal_peak_mb: 200,
      worker_heap_limit_mb: 192,
      worker_semi_space_mb: 4,
    });
    for (const key of ['seconds', 'rows_per_s', 'bare_seconds', 'bare_rows_per_s', 'ratio_export_over_bare', 'worker_rss_idle_mb']) {
      expect(result[key]).toBeGreaterThan(0);
    }
    expect(result.worker_peak_mb).toBeGreaterThanOrEqual(result.worker_rss_idle_mb as number);
    expect(result.file_mb).toBeGreaterThanOrEqual(0);
  }, 60_000);
});
