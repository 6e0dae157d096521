import { INestApplication, Injectable } from '@nestjs/common';
import { errorCodes, type FastifyInstance } from 'fastify';
import { OnHttpAppConfigured } from '@shared/bootstrap';

const UNSUBSCRIBE_ROUTE = '/u/*';

/**
 * RFC 8058 one-click unsubscribes arrive form-encoded (`List-Unsubscribe=One-Click`), which Nest's own urlencoded
 * parser reads, and so does the page's form; RFC 8058 allows `multipart/form-data` too, which Fastify refuses by
 * default. The handler needs nothing from the body (the signed token is the authority), so a multipart body is read up
 * to a small cap and kept as text, on this route only: multipart to any other route is still a 415.
 */
@Injectable()
export class UnsubscribeBodyParser implements OnHttpAppConfigured {
  onHttpAppConfigured(app: INestApplication): void {
    const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
    fastify.addContentTypeParser('multipart/form-data', { parseAs: 'string', bodyLimit: 4096 }, (request, body, done) => {
      if (request.routeOptions.url !== UNSUBSCRIBE_ROUTE)
        return done(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(request.headers['content-type']), undefined);
      done(null, body);
    });
  }
}
