import { FastifyInstance, LogController } from 'fastify';
import type { DestinationStream } from 'pino';
import { AppConfig } from '@shared/config';
import { loggerOptions } from './logger';

/** Probes that would fill the log with nothing. */
const NEVER_LOGGED = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Fastify's logging options: the shared pino options (to `stream` when given, stdout otherwise) and none of Fastify's
 * own two lines per request, which carry the raw URL; registerAccessLog writes the one line instead.
 */
export function httpLoggingOptions(config: AppConfig, service: string, stream?: DestinationStream) {
  return {
    logger: { ...loggerOptions(config, service), ...(stream ? { stream } : {}) },
    // The root `fastify` dependency is pinned to the version Nest's adapter uses, so the adapter accepts this instance.
    logController: new LogController({ disableRequestLogging: true }),
  };
}

/**
 * One line per request, written when the response is sent: method, route pattern (never the URL, so no query
 * string and no path values), status and duration; the request id comes from the request's logger (`reqId`).
 * The line is at `ACCESS_LOG_LEVEL` (debug in development, info elsewhere), a 5xx's at error.
 * Health, readiness and metrics probes are never logged; 401s are sampled (`ACCESS_LOG_401_SAMPLE`: one in N).
 */
export function registerAccessLog(fastify: FastifyInstance, config: AppConfig): void {
  const sampleEvery = config.accessLogUnauthenticatedSample;
  let unauthenticated = 0;
  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url;
    const status = reply.statusCode;
    const skipped = (route !== undefined && NEVER_LOGGED.has(route)) || (status === 401 && (sampleEvery === 0 || unauthenticated++ % sampleEvery !== 0));
    if (!skipped) {
      const line = { method: request.method, route: route ?? '(unmatched)', status, duration_ms: Math.round(reply.elapsedTime * 10) / 10 };
      // 501 answers a feature this install does not offer (a client probing /mcp, say): deliberate, not a fault.
      if (status >= 500 && status !== 501) request.log.error(line, 'request');
      else request.log[config.accessLogLevel](line, 'request');
    }
    done();
  });
}
