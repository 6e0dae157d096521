import { captureBenchmarkOutput } from './capture-output';
import { formsHostedPageBenchmark } from './forms-hosted-page';
import { formsSubmissionBenchmark } from './forms-submission';
import { useFormsTestDatabase } from './forms-test-database.fixture';

/**
 * One-second runs of the forms benchmarks against the built forms-api: they verify what they measure
 * (the page and its labels, the probe submission, the row counts), and print their JSON lines.
 */
describe('forms-hosted-page and forms-submission benchmarks', () => {
  const db = useFormsTestDatabase();
  const { results } = captureBenchmarkOutput();

  const args = (...extra: string[]) => ['--database-url', db.url(), '--duration', '1', '--warmup', '0', '--connections', '4', ...extra];

  it('forms-hosted-page: every answer is the 200 page; one result line', async () => {
    await formsHostedPageBenchmark.run(args());
    const [result, ...rest] = results();
    expect(rest).toEqual([]);
    expect(result).toMatchObject({ bench: 'forms-hosted-page', route: 'GET /f/{public_id}', form: { steps: 3, fields: 10 }, non_2xx: 0, errors: 0 });
    expect(result.status_counts).toEqual({ 200: result.requests });
    expect(result.requests).toBeGreaterThan(0);
    expect(result.page_bytes).toBeGreaterThan(1000);
    expect(result.response_bytes).toBeGreaterThan(result.page_bytes as number);
    expect(result.app_cpu_us_per_request).toEqual(expect.any(Number));
    expect(result.server_rss_mb).toEqual(expect.any(Number));
    expect(result.bare_req_per_s).toBeGreaterThan(0);
    expect(result.app_vs_bare).toBeCloseTo((result.req_per_s as number) / (result.bare_req_per_s as number), 2);
  }, 60_000);

  it.each(['api', 'public'])(
    'forms-submission --via %s: every answer 201; rows = responses_count = 201 answers (+ cut-off ones)',
    async (via) => {
      await formsSubmissionBenchmark.run(args('--via', via));
      const [result, check, ...rest] = results();
      expect(rest).toEqual([]);
      expect(result).toMatchObject({ bench: 'forms-submission', via, non_2xx: 0, errors: 0 });
      expect(result.status_counts).toEqual({ 201: result.requests });
      expect(result.latency_p90_ms).toBeGreaterThanOrEqual(result.latency_p50_ms as number);
      expect(check).toMatchObject({
        bench: 'forms-submission',
        check: 'form_submissions rows = responses_count = 201 answers',
        consistent: true,
        rows_equal_responses_count: true,
      });
      expect(check.answered_rows_found).toBe(check.answers_201_incl_warmup_and_probe);
      expect(check.answers_201_incl_warmup_and_probe).toBe((result.requests as number) + 1);
    },
    60_000,
  );
});
