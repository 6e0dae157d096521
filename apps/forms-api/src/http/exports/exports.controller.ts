import { Body, Controller, Get, Headers, HttpCode, Param, Post, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CurrentPrincipal, Principal, Public } from '@shared/auth';
import { WorkspaceContextResolver } from '@forms/forms';
import { SubmissionExportService } from '@forms/exports';
import { AppSessionGuard } from '@forms/oauth';
import { RateLimitGuard } from '@shared/rate-limit';

/**
 * The app-session spreadsheet export routes (outside the API-key schema pack): the signed-in owner's session cookie,
 * the CSRF token in X-CSRF-Token on the POST, and the owner's live membership on the form's workspace (a form of
 * another workspace is a 404 like a missing one; viewers may export, as they may read responses).
 */
@ApiExcludeController()
@Public()
// The global rate limit ran before the session was known: counted here, per session.
@UseGuards(AppSessionGuard, RateLimitGuard)
@Controller('api/forms/:form_id/responses/exports')
export class SubmissionExportsController {
  constructor(
    private readonly resolver: WorkspaceContextResolver,
    private readonly exports: SubmissionExportService,
  ) {}

  @Post('xlsx')
  @HttpCode(202)
  async start(
    @CurrentPrincipal() principal: Principal,
    @Param('form_id') formId: string,
    @Body() body: unknown,
    @Headers('idempotency-key') idempotencyKey?: string,
  ) {
    const workspace = await this.resolver.forForm(principal, formId, 'view');
    return { data: await this.exports.start(workspace.workspaceId, formId, body ?? {}, { idempotencyKey }) };
  }

  @Get(':export_id')
  async get(@CurrentPrincipal() principal: Principal, @Param('form_id') formId: string, @Param('export_id') exportId: string) {
    const workspace = await this.resolver.forForm(principal, formId, 'view');
    return { data: await this.exports.get(workspace.workspaceId, formId, exportId) };
  }

  /** Streams the workbook as an attachment, never rendered inline; the name is quoted plain and RFC 5987-encoded. */
  @Get(':export_id/download')
  async download(@CurrentPrincipal() principal: Principal, @Param('form_id') formId: string, @Param('export_id') exportId: string, @Res() reply: FastifyReply) {
    const workspace = await this.resolver.forForm(principal, formId, 'view');
    const file = await this.exports.openDownload(workspace.workspaceId, formId, exportId);
    return reply
      .header('content-type', file.contentType)
      .header('content-length', String(file.size))
      .header('content-disposition', attachmentDisposition(file.fileName))
      .header('x-content-type-options', 'nosniff')
      .send(file.stream);
  }
}

/** Anything but letters, digits, dot, dash and underscore becomes `_` in the plain name (no quote or header breaking). */
const attachmentDisposition = (name: string) => `attachment; filename="${name.replace(/[^\w.-]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`;
