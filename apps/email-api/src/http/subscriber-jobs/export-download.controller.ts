import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '@shared/auth';
import { Clock } from '@shared/core';
import { EXPORT_DOWNLOAD_PATH, ExportLinks, ExportService, jobFileKey, JobFiles } from '@email/jobs';

/**
 * Serves an export's CSV behind its signed, expiring `download_url`: the signature is the only authority (no API key:
 * a browser or a spreadsheet opens the link). The file streams from storage; an altered, expired or cleaned-up link is a 404.
 */
@ApiExcludeController()
@Public()
@Controller(EXPORT_DOWNLOAD_PATH.slice(1))
export class ExportDownloadController {
  constructor(
    private readonly links: ExportLinks,
    private readonly exports: ExportService,
    private readonly files: JobFiles,
    private readonly clock: Clock,
  ) {}

  @Get(':job_id')
  async download(
    @Param('job_id') jobId: string,
    @Query('expires') expires: string | undefined,
    @Query('signature') signature: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<FastifyReply> {
    const gone = () =>
      reply.status(404).header('content-type', 'text/plain; charset=utf-8').send('This download link is not valid or has expired. Start a new export.');
    if (!this.links.verify(jobId, expires, signature, this.clock.now())) return gone();
    const job = await this.exports.downloadable(jobId);
    const file = job && (await this.files.read(jobFileKey('exports', job.workspace_id, job.id)));
    if (!job || !file) return gone();
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${job.file_name}"`)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .send(file);
  }
}
