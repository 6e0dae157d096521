import { Controller, Get, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { Public } from '@shared/auth';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { UPLOAD_LINK_TTL_MS, UPLOAD_PAGE_PATH, UploadPageService } from '@email/jobs';
import { sendPage } from '../pages/html-page';
import { SetupCsrf } from '../connection-setup/setup-csrf';
import { uploadClosedPage, uploadFormPage } from './upload-pages';

/**
 * The browser page behind an import upload's `upload_url`: a person chooses a CSV, which streams to storage. The
 * link's token is the only authority; the file never passes through the JSON API. The page's script posts the raw
 * file back to the same URL (CSRF token in a header, checked against the page's cookie) and gets JSON back.
 */
@ApiExcludeController()
@Public()
@Controller(UPLOAD_PAGE_PATH.slice(1))
export class UploadPageController {
  private readonly csrf: SetupCsrf;

  constructor(
    private readonly pages: UploadPageService,
    @Inject(APP_CONFIG) config: Pick<AppConfig, 'publicBaseUrl'>,
  ) {
    this.csrf = new SetupCsrf(config.publicBaseUrl, UPLOAD_PAGE_PATH, UPLOAD_LINK_TTL_MS / 1000);
  }

  @Get(':token')
  async show(@Param('token') token: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const view = await this.pages.view(token);
    if (view.state === 'invalid') return sendPage(reply, 404, uploadClosedPage('invalid'));
    if (view.state === 'closed') return sendPage(reply, 410, uploadClosedPage(view.reason));
    return sendPage(reply, 200, uploadFormPage(view, this.csrf.issue(request, reply)));
  }

  @Post(':token')
  async upload(@Param('token') token: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const answer = (status: number, body: unknown) => reply.status(status).header('content-type', 'application/json; charset=utf-8').send(body);
    if (!(request.body instanceof Readable)) {
      return answer(415, { error: { code: 'unsupported_media_type', message: 'Send the file as application/octet-stream.' } });
    }
    if (!this.csrf.verify(request, request.headers['x-csrf-token'])) {
      return answer(403, { error: { code: 'unverified', message: 'The page could not be checked. Open the upload link again in this browser and retry.' } });
    }
    const length = request.headers['content-length'];
    const fileName = request.headers['x-file-name'];
    const outcome = await this.pages.receive(token, request.body, typeof fileName === 'string' ? fileName : undefined, length ? Number(length) : undefined);
    if (outcome.ok) {
      const { ok: _ok, ...file } = outcome;
      return answer(200, file);
    }
    // An unread body (refused before storing) is not drained: the connection closes after the answer.
    if (!request.body.readableEnded) reply.header('connection', 'close');
    return answer(outcome.status, { error: { code: outcome.code, message: outcome.message } });
  }
}
