import { Body, Controller, Get, Headers, HttpCode, Ip, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Readable } from 'node:stream';
import { Public } from '@shared/auth';
import { DomainError } from '@shared/errors';
import { FormsErrors } from '@forms/contracts';
import { PublishedForms } from '@forms/forms';
import { hostedFontFile } from '@forms/hosted-page';
import { PublicLimits, SubmissionsService, UploadsService } from '@forms/submissions';
import { EncodedBody, HostedPages } from './hosted-pages';

interface Reply {
  status(code: number): Reply;
  header(name: string, value: string): Reply;
  send(payload: Buffer): void;
}

/** Picks the gzip body when the client takes it; either way caches must key on Accept-Encoding. */
function sendBody(reply: Reply, body: EncodedBody, acceptEncoding: string | undefined): void {
  reply.header('vary', 'accept-encoding');
  if (/\bgzip\b/.test(acceptEncoding ?? '')) reply.header('content-encoding', 'gzip').send(body.gzip);
  else reply.send(body.plain);
}

/** What respondents reach without a key: the hosted form page, its script, uploads and submissions. */
@ApiExcludeController()
@Public()
@Controller()
export class PublicFormsController {
  constructor(
    private readonly published: PublishedForms,
    private readonly pages: HostedPages,
    private readonly submissions: SubmissionsService,
    private readonly uploads: UploadsService,
    private readonly limits: PublicLimits,
  ) {}

  /** Browsers ask for it on every hosted page; answering 204 keeps their consoles clean. */
  @Get('favicon.ico')
  @HttpCode(204)
  favicon(): void {}

  /** The page's script or stylesheet, named by content, so cached for good. */
  @Get('f/assets/:file')
  async script(@Param('file') file: string, @Headers('accept-encoding') acceptEncoding: string | undefined, @Res() reply: Reply) {
    const script = await this.pages.script();
    const stylesheet = this.pages.stylesheet();
    const asset = file === script.fileName ? script : file === stylesheet.fileName ? stylesheet : null;
    if (!asset) throw FormsErrors.notFound('asset', file);
    reply
      .header('content-type', asset === script ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('etag', asset.etag);
    sendBody(reply, asset.body, acceptEncoding);
  }

  /** A theme font file the page links to (only those; see @forms/hosted-page fonts); named by its content, so immutable. */
  @Get('f/fonts/:file')
  font(@Param('file') file: string, @Res() reply: Reply) {
    const font = hostedFontFile(file);
    if (!font) throw FormsErrors.notFound('asset', file);
    reply.header('content-type', 'font/woff2').header('cache-control', 'public, max-age=31536000, immutable').header('etag', font.etag).send(font.body);
  }

  @Get('f/:public_id')
  async page(@Ip() ip: string, @Param('public_id') publicId: string, @Headers('accept-encoding') acceptEncoding: string | undefined, @Res() reply: Reply) {
    const retryAfter = this.pageRetryAfter(ip);
    if (retryAfter) reply.header('retry-after', retryAfter);
    const page = retryAfter ? this.pages.tooManyRequests(Number(retryAfter)) : await this.pages.render(await this.published.byPublicId(publicId));
    reply
      .status(page.status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', page.csp)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'strict-origin-when-cross-origin')
      .header('cache-control', 'no-cache');
    sendBody(reply, page.body, acceptEncoding);
  }

  /** Retry-After when the client is over its page-view limit (the page then says so), else undefined. */
  private pageRetryAfter(ip: string): string | undefined {
    try {
      this.limits.hostedPage(ip);
      return undefined;
    } catch (error) {
      if (error instanceof DomainError && error.status === 429) return error.headers['retry-after'];
      throw error;
    }
  }

  @Post('api/public/forms/:public_id/submissions')
  @HttpCode(201)
  async submit(@Ip() ip: string, @Param('public_id') publicId: string, @Body() body: unknown) {
    await this.limits.submission(ip, publicId);
    const form = await this.published.byPublicId(publicId);
    if (!form) throw FormsErrors.notFound('form', publicId);
    return this.submissions.submit(form, body, 'hosted_form');
  }

  @Post('api/public/forms/:public_id/uploads')
  @HttpCode(201)
  async upload(
    @Ip() ip: string,
    @Param('public_id') publicId: string,
    // The raw request, not @Body(): the body is an unread stream, which validation pipes must not walk.
    @Req() request: { body?: unknown },
    @Headers('content-length') contentLength: string | undefined,
    @Headers('x-file-name') fileName: string | undefined,
    @Headers('x-file-type') fileType: string | undefined,
  ) {
    await this.limits.upload(ip, publicId);
    const form = await this.published.byPublicId(publicId);
    if (!form) throw FormsErrors.notFound('form', publicId);
    // A media type as RFC 6838 bounds it (type and subtype at most 127 characters each); anything else is plain bytes.
    const mimeType = /^[\w.+-]{1,127}\/[\w.+-]{1,127}$/.test(fileType ?? '') ? (fileType as string) : 'application/octet-stream';
    return this.uploads.upload(form, {
      fileName: safeDecode(fileName ?? ''),
      mimeType,
      declaredBytes: contentLength === undefined ? undefined : Number(contentLength),
      body: request.body instanceof Readable ? request.body : Readable.from([]),
    });
  }
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
