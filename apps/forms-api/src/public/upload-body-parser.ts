import { INestApplication, Injectable } from '@nestjs/common';
import { errorCodes, type FastifyInstance } from 'fastify';
import { OnHttpAppConfigured } from '@shared/bootstrap';

const UPLOAD_ROUTE = '/api/public/forms/:public_id/uploads';

/**
 * Uploads arrive as raw bytes (`application/octet-stream`) and reach the upload handler unread, as a stream, which
 * UploadsService writes to storage with its own size cap. Raw bytes to any other route are a 415, as before: those
 * routes stay JSON-only.
 */
@Injectable()
export class UploadBodyParser implements OnHttpAppConfigured {
  onHttpAppConfigured(app: INestApplication): void {
    const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
    fastify.addContentTypeParser('application/octet-stream', (request, payload, done) => {
      if (request.routeOptions.url !== UPLOAD_ROUTE) return done(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(request.headers['content-type']), undefined);
      done(null, payload);
    });
  }
}
