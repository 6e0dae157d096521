import { INestApplication, Injectable } from '@nestjs/common';
import { errorCodes, type FastifyInstance } from 'fastify';
import { keepRawBodies, OnHttpAppConfigured } from '@shared/bootstrap';

export const DELIVERY_FEEDBACK_ROUTE = '/v1/delivery-feedback/:connection_id';

/**
 * On the feedback route only: keeps a copy of the body bytes as they pass to the parser (the app's body limit still
 * applies), and takes `text/plain`, which is how SNS posts its JSON messages (the app refuses text/plain elsewhere
 * with a 415, as before).
 */
@Injectable()
export class DeliveryFeedbackBody implements OnHttpAppConfigured {
  onHttpAppConfigured(app: INestApplication): void {
    const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
    keepRawBodies(fastify, DELIVERY_FEEDBACK_ROUTE);
    fastify.addContentTypeParser('text/plain', { parseAs: 'string' }, (request, body, done) => {
      if (request.routeOptions.url !== DELIVERY_FEEDBACK_ROUTE)
        return done(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(request.headers['content-type']), undefined);
      done(null, body);
    });
  }
}
