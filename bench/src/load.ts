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

// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require('autocannon') as (options: AutocannonOptions) => Promise<AutocannonResult>;

export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  connections: number;
  /** Seconds measured. */
  duration: number;
  /** Seconds of the same load first, not measured (JIT, connection pools, caches). */
  warmup: number;
}

export interface LoadResult {
  requests: number;
  req_per_s: number;
  latency_avg_ms: number;
  latency_p50_ms: number;
  latency_p90_ms: number;
  latency_p99_ms: number;
  latency_max_ms: number;
  non_2xx: number;
  errors: number;
  timeouts: number;
}

/** Closed-loop load: `connections` clients each send the next request as soon as the previous answer arrives. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    headers: options.headers,
    connections: options.connections,
    duration: options.duration,
    ...(options.warmup > 0 ? { warmup: { connections: options.connections, duration: options.warmup } } : {}),
  });
  const total = result['2xx'] + result.non2xx;
  return {
    requests: total,
    req_per_s: Math.round(total / result.duration),
    latency_avg_ms: Math.round(result.latency.average * 100) / 100,
    latency_p50_ms: result.latency.p50,
    latency_p90_ms: result.latency.p90,
    latency_p99_ms: result.latency.p99,
    latency_max_ms: result.latency.max,
    non_2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}
