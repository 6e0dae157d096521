import { runReadiness } from './readiness';

describe('runReadiness', () => {
  it('is ok only when every check answers', async () => {
    expect(await runReadiness([{ name: 'a', check: async () => 1 }])).toEqual({ status: 'ok', checks: { a: 'ok' } });
    const report = await runReadiness([
      { name: 'a', check: async () => 1 },
      { name: 'b', check: async () => Promise.reject(new Error('down')) },
    ]);
    expect(report).toEqual({ status: 'unavailable', checks: { a: 'ok', b: 'unavailable' } });
  });

  it('treats a check that hangs as unavailable after its timeout', async () => {
    const started = Date.now();
    const report = await runReadiness([{ name: 'slow', check: () => new Promise(() => undefined) }]);
    expect(report.checks.slow).toBe('unavailable');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
  });
});
