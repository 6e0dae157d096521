import type { FastifyInstance } from 'fastify';
import { AppConfig } from '@shared/config';
import { answerClientError, toErrorResponse } from '@shared/errors';
import { mediaTypeOf } from './media-type';

interface EnvelopeReply {
  header(name: string, value: string): unknown;
  code(status: number): unknown;
  headers(values: Record<string, string>): unknown;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the payload type depends on the route schema Fastify resolves; a framework error has none
  send(body: any): unknown;
}

/**
 * Fastify and Node options for what happens before a route runs: how long a client may take to send its request,
 * how many connections a process holds, and errors the router and HTTP parser raise themselves — answered in the
 * error envelope like every other error.
 */
export function httpEdgeOptions(config: AppConfig, requestIdHeaders: string[]) {
  return {
    // A request (head and body) slower than this gets a 408 envelope; Node checks open requests once a second.
    requestTimeout: config.httpRequestTimeoutMs,
    http: {
      headersTimeout: config.httpHeadersTimeoutMs,
      requestTimeout: config.httpRequestTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, config.httpHeadersTimeoutMs),
    },
    // A socket with no traffic at all for this long is closed, whatever state it is in.
    connectionTimeout: config.httpIdleTimeoutMs,
    keepAliveTimeout: config.httpKeepAliveTimeoutMs,
    maxRequestsPerSocket: config.httpMaxRequestsPerSocket,
    frameworkErrors: (error: Error, request: { id: string }, reply: EnvelopeReply) => {
      const response = toErrorResponse(error);
      for (const name of requestIdHeaders) reply.header(name, request.id);
      reply.code(response.status);
      reply.headers({ ...response.headers, 'cache-control': 'no-store' });
      reply.send(response.body);
    },
    clientErrorHandler: answerClientError,
  };
}

/**
 * The connection cap, `Cache-Control: no-store` on every response whose route does not choose its own caching, and an
 * empty body declared as JSON read as no body.
 */
export function registerHttpEdges(instance: FastifyInstance, config: AppConfig): void {
  if (config.httpMaxConnections > 0) instance.server.maxConnections = config.httpMaxConnections;
  instance.addHook('onRequest', (request, reply, done) => {
    reply.header('cache-control', 'no-store');
    // Many clients declare JSON on every request, bodiless ones too: an empty body is no body, and the route's own
    // validation says what, if anything, it needed.
    const { 'content-length': length, 'transfer-encoding': encoding } = request.headers;
    const bodiless = length === '0' || (length === undefined && encoding === undefined);
    if (bodiless && mediaTypeOf(request) === 'application/json') delete request.headers['content-type'];
    done();
  });
}
