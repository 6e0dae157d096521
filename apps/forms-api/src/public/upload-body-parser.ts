import { INestApplication, Injectable } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import { OnHttpAppConfigured } from '@shared/observability';

/**
 * Uploads arrive as raw bytes (`application/octet-stream`) and reach the handler unread, as a stream, which
 * UploadsService writes to storage with its own size cap. Every other route stays JSON-only.
 */
@Injectable()
export class UploadBodyParser implements OnHttpAppConfigured {
  onHttpAppConfigured(app: INestApplication): void {
    const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
    fastify.addContentTypeParser('application/octet-stream', (_request, payload, done) => done(null, payload));
  }
}
