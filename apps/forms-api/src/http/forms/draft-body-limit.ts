import { INestApplication, Inject, Injectable } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import { Transform } from 'node:stream';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { OnHttpAppConfigured } from '@shared/bootstrap';
import { draftTooLarge } from '@forms/forms';

/** The routes whose body carries a whole draft. */
const DRAFT_ROUTES = new Set(['POST /api/v1/forms', 'PATCH /api/v1/forms/:form_id', 'PUT /api/v1/forms/:form_id/draft', 'POST /api/v1/forms/:form_id/publish']);

/**
 * Room for the members beside the draft (`title`, `draft_revision`, `force`), so a stored draft at the limit can be
 * sent back whole; the draft itself is held to the limit when it is stored (FormsService).
 */
const BODY_ROOM = 4096;

/**
 * Refuses a draft body over FORMS_MAX_DRAFT_BYTES (plus BODY_ROOM) before it is read and parsed: by its
 * Content-Length, or, for a body sent without one, as soon as the bytes received pass the limit.
 */
@Injectable()
export class DraftBodyLimit implements OnHttpAppConfigured {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  onHttpAppConfigured(app: INestApplication): void {
    const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
    const maxDraftBytes = this.config.formsMaxDraftBytes;
    const maxBytes = maxDraftBytes + BODY_ROOM;
    fastify.addHook('preParsing', (request, _reply, payload, done) => {
      if (!DRAFT_ROUTES.has(`${request.method} ${request.routeOptions.url}`)) return done(null, payload);
      if (Number(request.headers['content-length']) > maxBytes) return done(draftTooLarge(maxDraftBytes));
      let received = 0;
      const capped = new Transform({
        transform(chunk: Buffer, _encoding, next) {
          received += chunk.length;
          next(received > maxBytes ? draftTooLarge(maxDraftBytes) : null, chunk);
        },
      });
      done(null, payload.pipe(capped));
    });
  }
}
