import { Controller, Get, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { Public } from '@shared/auth';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { UPLOAD_LINK_TTL_MS, UPLOAD_PAGE_PATH, UploadOutcome, UploadPageService } from '@email/jobs';
import { sendPage } from '@shared/browser-session';
import { SetupCsrf } from '../connection-setup/setup-csrf';
import { readUploadForm } from './upload-form';
import { uploadClosedPage, uploadDonePage, uploadFormPage } from './upload-pages';

const UNVERIFIED = 'The page could not be checked. Open the upload link again in this browser and retry.';
const INTERRUPTED: UploadOutcome = { ok: false, status: 400, code: 'upload_interrupted', message: 'The file did not arrive whole. Choose it again and retry.' };

/** The name the script sends in `x-file-name`, URI-encoded so that any name fits in a header. */
function headerFileName(raw: string | string[] | undefined): string | undefined {
  if (typeof raw !== 'string') return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/**
 * The browser page behind an import upload's `upload_url`: a person chooses a CSV, which streams to storage. The
 * link's token is the only authority; the file never passes through the JSON API. The page is a plain form (multipart
 * post, CSRF token in a hidden field, a page back); its script instead posts the raw file to the same URL (CSRF token
 * in a header) for a progress bar, and gets JSON back. Both are checked against the page's cookie.
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
  show(@Param('token') token: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.showForm(token, request, reply, 200);
  }

  @Post(':token')
  async upload(@Param('token') token: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    if (!(request.body instanceof Readable)) {
      return answer(reply, 415, { error: { code: 'unsupported_media_type', message: 'Send the file as application/octet-stream.' } });
    }
    if (request.headers['content-type']?.startsWith('multipart/form-data')) return this.uploadForm(token, request, request.body, reply);
    if (!this.csrf.verify(request, request.headers['x-csrf-token'])) return answer(reply, 403, { error: { code: 'unverified', message: UNVERIFIED } });
    const length = request.headers['content-length'];
    const body = request.body;
    const outcome = await receiveFrom(request, body, () =>
      this.pages.receive(token, body, headerFileName(request.headers['x-file-name']), length ? Number(length) : undefined),
    );
    if (outcome.ok) {
      const { ok: _ok, ...file } = outcome;
      return answer(reply, 200, file);
    }
    closeIfUnread(request.body, reply);
    return answer(reply, outcome.status, { error: { code: outcome.code, message: outcome.message } });
  }

  /** The plain form's post: the same checks and storage as the script's, answered with a page. */
  private async uploadForm(token: string, request: FastifyRequest, body: Readable, reply: FastifyReply): Promise<FastifyReply> {
    const form = await readUploadForm(request.headers, body).catch(() => null);
    let outcome: UploadOutcome;
    if (!form) outcome = { ok: false, status: 400, code: 'unreadable_form', message: 'The form could not be read. Choose the file again and retry.' };
    else if (!this.csrf.verify(request, form.csrfToken)) outcome = { ok: false, status: 403, code: 'unverified', message: UNVERIFIED };
    else if (!form.file?.name) outcome = { ok: false, status: 422, code: 'no_file', message: 'Choose a CSV file first.' };
    else outcome = await receiveFrom(request, form.file.stream, () => this.pages.receive(token, form.file!.stream, form.file!.name, undefined));
    if (outcome.ok) return sendPage(reply, 200, uploadDonePage(outcome));
    closeIfUnread(body, reply);
    return this.showForm(token, request, reply, outcome.status, outcome.message);
  }

  private async showForm(token: string, request: FastifyRequest, reply: FastifyReply, status: number, error?: string): Promise<FastifyReply> {
    const view = await this.pages.view(token);
    if (view.state === 'invalid') return sendPage(reply, 404, uploadClosedPage('invalid'));
    if (view.state === 'closed') return sendPage(reply, 410, uploadClosedPage(view.reason));
    return sendPage(reply, status, uploadFormPage(view, this.csrf.issue(request, reply), error));
  }
}

const answer = (reply: FastifyReply, status: number, body: unknown) =>
  reply.status(status).header('content-type', 'application/json; charset=utf-8').send(body);

/**
 * Runs `receive` over `file`. When it fails because the file's stream failed, the client broke the upload off: that is
 * a 400, never a server error, and a client that went away is logged at info, without a stack. (Storage failures do not
 * fail the file's stream: it is piped, not destroyed, so they stay server errors.)
 */
async function receiveFrom(request: FastifyRequest, file: Readable, receive: () => Promise<UploadOutcome>): Promise<UploadOutcome> {
  let failed = false;
  // Left attached: an error the stream emits after the write gave up on it must not go unhandled.
  file.on('error', () => (failed = true));
  try {
    return await receive();
  } catch (error) {
    if (!failed) throw error;
    if (request.raw.socket.destroyed) request.log.info({ reason: (error as Error).message }, 'import upload broke off: the client went away');
    return INTERRUPTED;
  }
}

/** A body refused before it was read is not drained: the connection closes after the answer. */
function closeIfUnread(body: Readable, reply: FastifyReply): void {
  if (!body.readableEnded) reply.header('connection', 'close');
}
