import { INestApplication, Injectable } from '@nestjs/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Transform } from 'node:stream';
import { OnHttpAppConfigured } from '@shared/bootstrap';

export const PAYMENT_WEBHOOK_ROUTE = '/api/payments/:provider/webhook';

/** The exact bytes of each payment webhook's body, kept beside the parsed one: providers sign the raw body. */
const rawBodies = new WeakMap<FastifyRequest, Buffer>();

export function rawBodyOf(request: FastifyRequest): Buffer {
  return rawBodies.get(request) ?? Buffer.alloc(0);
}

/** On the payment webhook route only: copies the body bytes as they pass to the JSON parser (the body limit still applies). */
@Injectable()
export class PaymentWebhookBody implements OnHttpAppConfigured {
  onHttpAppConfigured(app: INestApplication): void {
    const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
    fastify.addHook('preParsing', (request, _reply, payload, done) => {
      if (request.routeOptions.url !== PAYMENT_WEBHOOK_ROUTE) return done(null, payload);
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
}
