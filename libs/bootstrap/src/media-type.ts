import type { FastifyRequest } from 'fastify';

/** The media type a request declares for its body, without parameters, in lower case ('' when it declares none). */
export const mediaTypeOf = (request: FastifyRequest): string => (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
