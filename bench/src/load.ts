/** The part of autocannon's programmatic API the benchmarks use (autocannon ships no types). */
interface Histogram {
  average: number;
  mean: number;
  stddev: number;
  min: number;
  max: number;
  p50: number;
  p90: number;
  p99: number;
  p99_9: number;
  total: number;
}

export interface AutocannonResult {
  requests: Histogram;
  latency: Histogram;
  throughput: Histogram;
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
  statusCodeStats: Record<string, { count: number }>;
}

interface AutocannonOptions {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
  warmup?: { connections: number; duration: number };
}

/** What autocannon() returns without a callback: an EventEmitter that is also a promise of the result. */
export interface AutocannonInstance extends PromiseLike<AutocannonResult> {
  on(event: 'response', listener: (client: unknown, statusCode: number, bytes: number, responseTimeMs: number) => void): this;
  /** Emitted when the measured run starts (after any warm-up, which runs on an instance of its own). */
  on(event: 'start', listener: () => void): this;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require('autocannon') as (options: AutocannonOptions) => AutocannonInstance;

/**
 * Response times in ms, kept exactly. autocannon's own latency histogram has 1 ms resolution,
 * which rounds every answer of a fast route down to 0.
 */
export class LatencySamples {
  private values = new Float64Array(1 << 16);
  private size = 0;

  add(ms: number): void {
    if (this.size === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.size++] = ms;
  }

  get count(): number {
    return this.size;
  }

  /** Mean and percentiles (nearest rank) in ms, rounded to microseconds. */
  summary(): { avg: number; p50: number; p90: number; p95: number; p99: number; max: number } {
    const sorted = this.values.slice(0, this.size).sort();
    const at = (p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : 0);
    const ms = (v: number) => Math.round(v * 1000) / 1000;
    let sum = 0;
    for (const v of sorted) sum += v;
    return { avg: ms(sorted.length ? sum / sorted.length : 0), p50: ms(at(50)), p90: ms(at(90)), p95: ms(at(95)), p99: ms(at(99)), max: ms(at(100)) };
  }
}

export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  connections: number;
  /** Seconds measured. */
  duration: number;
  /** Seconds of the same load first, not measured (JIT, connection pools, caches). */
  warmup: number;
  /** Reads the server's CPU seconds so far; sampled when the measured run starts and ends. */
  serverCpuSeconds?: () => number | undefined;
}

/** The figures every load run reports: request count and rate, latency percentiles, failures. */
export interface RunSummary {
  requests: number;
  req_per_s: number;
  latency_avg_ms: number;
  latency_p50_ms: number;
  latency_p90_ms: number;
  latency_p95_ms: number;
  latency_p99_ms: number;
  latency_max_ms: number;
  non_2xx: number;
  errors: number;
  timeouts: number;
}

export interface LoadResult extends RunSummary {
  /** Server CPU microseconds per measured request, when serverCpuSeconds was given and could be read. */
  server_cpu_us_per_request?: number;
}

export function summarizeRun(
  result: { '2xx': number; non2xx: number; duration: number; errors: number; timeouts: number },
  latencies: LatencySamples,
): RunSummary {
  const total = result['2xx'] + result.non2xx;
  const latency = latencies.summary();
  return {
    requests: total,
    req_per_s: Math.round(total / result.duration),
    latency_avg_ms: latency.avg,
    latency_p50_ms: latency.p50,
    latency_p90_ms: latency.p90,
    latency_p95_ms: latency.p95,
    latency_p99_ms: latency.p99,
    latency_max_ms: latency.max,
    non_2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

/** Closed-loop load: `connections` clients each send the next request as soon as the previous answer arrives. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const instance = autocannon({
    url: options.url,
    headers: options.headers,
    connections: options.connections,
    duration: options.duration,
    ...(options.warmup > 0 ? { warmup: { connections: options.connections, duration: options.warmup } } : {}),
  });
  // The warm-up runs on an instance of its own: only measured answers arrive here.
  const latencies = new LatencySamples();
  instance.on('response', (_client, _status, _bytes, responseTimeMs) => latencies.add(responseTimeMs));
  let cpuAtStart: number | undefined;
  instance.on('start', () => (cpuAtStart = options.serverCpuSeconds?.()));
  const result = await instance;
  const cpuAtEnd = options.serverCpuSeconds?.();
  const summary = summarizeRun(result, latencies);
  const total = summary.requests;
  const cpuUs = cpuAtStart !== undefined && cpuAtEnd !== undefined && total > 0 ? Math.round(((cpuAtEnd - cpuAtStart) * 1e6) / total) : undefined;
  return { ...summary, server_cpu_us_per_request: cpuUs };
}
