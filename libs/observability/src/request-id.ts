import type { FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Fastify's `genReqId`: the first of `headers` the client sent with a safe value, otherwise a new `req_<uuid>`. */
export function requestIdGenerator(headers: string[]) {
  return (req: { headers: Record<string, string | string[] | undefined> }): string => {
    for (const name of headers) {
      const incoming = req.headers[name];
      if (typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming)) return incoming;
    }
    return `req_${randomUUID()}`;
  };
}

/** Echoes the request id on every response, under each of `headers`. */
export function registerRequestIdEcho(instance: FastifyInstance, headers: string[]): void {
  instance.addHook('onRequest', (request, reply, done) => {
    for (const name of headers) reply.header(name, request.id);
    done();
  });
}
