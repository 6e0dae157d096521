import { INestApplication, Injectable } from '@nestjs/common';
import { errorCodes, type FastifyInstance } from 'fastify';
import { OnHttpAppConfigured } from '@shared/bootstrap';
import { UPLOAD_PAGE_PATH } from '@email/jobs';

const UPLOAD_ROUTE = `${UPLOAD_PAGE_PATH}/:token`;

/**
 * The import page sends the file as raw bytes (`application/octet-stream`); they reach the handler unread, as a
 * stream, which goes to storage with its own size cap. Raw bytes to any other route are a 415: those stay JSON-only.
 */
@Injectable()
export class ImportUploadBodyParser implements OnHttpAppConfigured {
  onHttpAppConfigured(app: INestApplication): void {
    const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
    fastify.addContentTypeParser('application/octet-stream', (request, payload, done) => {
      if (request.routeOptions.url !== UPLOAD_ROUTE) return done(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(request.headers['content-type']), undefined);
      done(null, payload);
    });
  }
}
