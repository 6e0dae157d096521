import { INestApplication, Injectable } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import { OnHttpAppConfigured } from '@shared/observability';
import { MAX_UPLOAD_BYTES } from '@forms/submissions';

/** Uploads arrive as raw bytes (`application/octet-stream`); every other route stays JSON-only. */
@Injectable()
export class UploadBodyParser implements OnHttpAppConfigured {
  onHttpAppConfigured(app: INestApplication): void {
    const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
    fastify.addContentTypeParser('application/octet-stream', { parseAs: 'buffer', bodyLimit: MAX_UPLOAD_BYTES }, (_request, body, done) => done(null, body));
  }
}
