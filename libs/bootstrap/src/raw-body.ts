import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Transform } from 'node:stream';

/** The exact bytes of request bodies on the routes that keep them, beside the parsed body: senders sign the raw bytes. */
const rawBodies = new WeakMap<FastifyRequest, Buffer>();

/** The body as it arrived on a route that keeps raw bodies (empty when there was none). */
export function rawBodyOf(request: FastifyRequest): Buffer {
  return rawBodies.get(request) ?? Buffer.alloc(0);
}

/** On `route` only: copies the body bytes as they pass to the parser (the app's body limit still applies). */
export function keepRawBodies(fastify: FastifyInstance, route: string): void {
  fastify.addHook('preParsing', (request, _reply, payload, done) => {
    if (request.routeOptions.url !== route) return done(null, payload);
    const chunks: Buffer[] = [];
    const copy = new Transform({
      transform(chunk: Buffer, _encoding, next) {
        chunks.push(chunk);
        next(null, chunk);
      },
      flush(next) {
        rawBodies.set(request, Buffer.concat(chunks));
        next();
      },
    });
    done(null, payload.pipe(copy));
  });
}
