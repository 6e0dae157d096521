import { Body, Controller, Get, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiQuery, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { Readable } from 'node:stream';
import { RequireScopes } from '@shared/auth';
import { parseLimit } from '@shared/pagination';
import { FormsErrors } from '@forms/contracts';
import { CachedFormWorkspace, FormsService, FormsWorkspaceContext, FormWorkspace } from '@forms/forms';
import { SubmissionCreatedDto, SubmissionDto, SubmissionInputDto, SubmissionListDto, SubmissionsService, UploadsService } from '@forms/submissions';
import { ApiErrors } from '../../schema-pack/error-response';

const SUBMISSION_LIST_LIMIT = { default: 20, max: 100 };

interface Reply {
  header(name: string, value: string): Reply;
  send(payload: Buffer | Readable): void;
}

const LIST_PARAMETERS = ['limit', 'after'];

/** The list's own parameters only: the service refuses unknown ones everywhere, rather than ignoring a filter it lacks. */
function refuseUnknownParameters(query: Record<string, unknown>): void {
  const unknown = Object.keys(query).find((name) => !LIST_PARAMETERS.includes(name));
  if (unknown !== undefined)
    throw FormsErrors.invalid('validation_failed', `${unknown} is not a parameter of this list; it takes limit and after.`, unknown, 'unknown_property');
}

function parseAfter(raw: unknown): Date | undefined {
  if (raw === undefined || raw === '') return undefined;
  const at = typeof raw === 'string' && /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(raw) ? new Date(raw) : new Date(NaN);
  if (Number.isNaN(at.getTime())) throw FormsErrors.invalid('validation_failed', 'after must be an ISO 8601 timestamp.', 'after');
  return at;
}

@ApiTags('Submissions')
@Controller('api/v1/forms/:form_id')
export class SubmissionsController {
  constructor(
    private readonly forms: FormsService,
    private readonly submissions: SubmissionsService,
    private readonly uploads: UploadsService,
  ) {}

  @Get('submissions')
  @RequireScopes('submissions:read')
  @ApiOperation({ operationId: 'listSubmissions', summary: 'List completed submissions, oldest first' })
  @ApiQuery({
    name: 'limit',
    required: false,
    schema: { type: 'integer', minimum: 1, maximum: SUBMISSION_LIST_LIMIT.max, default: SUBMISSION_LIST_LIMIT.default },
  })
  @ApiQuery({
    name: 'after',
    required: false,
    schema: { type: 'string', format: 'date-time' },
    description: 'Only submissions created after this ISO 8601 time.',
  })
  @ApiOkResponse({ type: SubmissionListDto })
  @ApiErrors(400, 404)
  async list(
    @FormWorkspace('view') workspace: FormsWorkspaceContext,
    @Param('form_id') formId: string,
    @Query() query: Record<string, unknown>,
  ): Promise<SubmissionListDto> {
    refuseUnknownParameters(query);
    const limit = parseLimit(query.limit, SUBMISSION_LIST_LIMIT);
    const after = parseAfter(query.after);
    return { data: await this.submissions.list(workspace, formId, { after, limit }), next_cursor: null };
  }

  @Get('submissions/:submission_id')
  @RequireScopes('submissions:read')
  @ApiOperation({ operationId: 'getSubmission', summary: 'Get a submission' })
  @ApiOkResponse({ type: SubmissionDto })
  @ApiErrors(404)
  async get(
    @FormWorkspace('view') workspace: FormsWorkspaceContext,
    @Param('form_id') formId: string,
    @Param('submission_id') submissionId: string,
  ): Promise<SubmissionDto> {
    const record = await this.submissions.get(workspace, formId, submissionId);
    if (!record) throw FormsErrors.notFound('submission', submissionId);
    return { data: record };
  }

  @Post('submissions')
  @RequireScopes('submissions:create')
  @ApiOperation({ operationId: 'createSubmission', summary: 'Submit answers to the published form' })
  @ApiBody({
    required: true,
    description: 'The answers by field id, either as the whole body or wrapped in `values` with the other members.',
    schema: {
      anyOf: [
        { $ref: getSchemaPath(SubmissionInputDto) },
        { type: 'object', additionalProperties: true, description: 'Answers by field id (hidden fields by id too).' },
      ],
    },
  })
  @ApiCreatedResponse({ type: SubmissionCreatedDto })
  @ApiErrors(400, 404, 409)
  async create(
    @CachedFormWorkspace('edit') workspace: FormsWorkspaceContext,
    @Param('form_id') formId: string,
    @Body() body: unknown,
  ): Promise<SubmissionCreatedDto> {
    return this.submissions.submit(await this.forms.publishedForm(workspace, formId), body, 'api');
  }

  @Get('uploads/:upload_id')
  @RequireScopes('submissions:read')
  @ApiOperation({ operationId: 'downloadUpload', summary: 'Download a file a respondent uploaded' })
  @ApiOkResponse({
    description: 'The file, with the Content-Type it was uploaded with and an attachment Content-Disposition.',
    content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
  })
  @ApiErrors(404)
  async download(
    @FormWorkspace('view') workspace: FormsWorkspaceContext,
    @Param('form_id') formId: string,
    @Param('upload_id') uploadId: string,
    @Res() reply: Reply,
  ) {
    const upload = await this.uploads.open(workspace, formId, uploadId);
    if (!upload) throw FormsErrors.notFound('upload', uploadId);
    reply
      .header('content-type', upload.mimeType)
      .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(upload.fileName)}`)
      .header('x-content-type-options', 'nosniff')
      .send(upload.body);
  }
}
