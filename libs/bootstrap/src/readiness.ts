import { Provider } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { REDIS_CLIENT } from '@shared/redis';
import { withTimeout } from '@shared/observability';

/** A dependency the process needs before it can serve (database, Redis). */
export interface ReadinessCheck {
  name: string;
  check(): Promise<unknown>;
}

export const READINESS_CHECKS = Symbol('READINESS_CHECKS');

export interface ReadinessReport {
  status: 'ok' | 'unavailable';
  checks: Record<string, 'ok' | 'unavailable'>;
}

const CHECK_TIMEOUT_MS = 2000;

/** Runs every check in parallel, each bounded by a timeout. */
export async function runReadiness(checks: ReadinessCheck[]): Promise<ReadinessReport> {
  const results = await Promise.all(
    checks.map(async (c) => {
      try {
        await withTimeout(c.check(), CHECK_TIMEOUT_MS, `${c.name} check timed out`);
        return [c.name, 'ok'] as const;
      } catch {
        return [c.name, 'unavailable'] as const;
      }
    }),
  );
  const report = Object.fromEntries(results);
  return { status: results.every(([, s]) => s === 'ok') ? 'ok' : 'unavailable', checks: report };
}

interface SqlPingable {
  $queryRawUnsafe(query: string): Promise<unknown>;
}

/** The standard checks: the service's database answers `SELECT 1` and Redis answers PING. */
export function readinessChecksProvider(database: abstract new (...args: never[]) => SqlPingable): Provider {
  return {
    provide: READINESS_CHECKS,
    inject: [database, REDIS_CLIENT],
    useFactory: (db: SqlPingable, redis: Redis): ReadinessCheck[] => [
      { name: 'database', check: () => db.$queryRawUnsafe('SELECT 1') },
      { name: 'redis', check: () => redis.ping() },
    ],
  };
}
