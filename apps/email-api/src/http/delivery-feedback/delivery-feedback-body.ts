import { INestApplication, Injectable } from '@nestjs/common';
import { errorCodes, type FastifyInstance, type FastifyRequest } from 'fastify';
import { Transform } from 'node:stream';
import { OnHttpAppConfigured } from '@shared/bootstrap';

export const DELIVERY_FEEDBACK_ROUTE = '/v1/delivery-feedback/:connection_id';

/** The exact bytes of each feedback request's body, kept beside the parsed one: providers sign the raw body. */
const rawBodies = new WeakMap<FastifyRequest, Buffer>();

/** The body as it arrived (empty when there was none). */
export function rawBodyOf(request: FastifyRequest): Buffer {
  return rawBodies.get(request) ?? Buffer.alloc(0);
}

/**
 * On the feedback route only: keeps a copy of the body bytes as they pass to the parser (the app's body limit still
 * applies), and takes `text/plain`, which is how SNS posts its JSON messages (the app refuses text/plain elsewhere
 * with a 415, as before).
 */
@Injectable()
export class DeliveryFeedbackBody implements OnHttpAppConfigured {
  onHttpAppConfigured(app: INestApplication): void {
    const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
    fastify.addHook('preParsing', (request, _reply, payload, done) => {
      if (request.routeOptions.url !== DELIVERY_FEEDBACK_ROUTE) return done(null, payload);
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
    fastify.addContentTypeParser('text/plain', { parseAs: 'string' }, (request, body, done) => {
      if (request.routeOptions.url !== DELIVERY_FEEDBACK_ROUTE)
        return done(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(request.headers['content-type']), undefined);
      done(null, body);
    });
  }
}
