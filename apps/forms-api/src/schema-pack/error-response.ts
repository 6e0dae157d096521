import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiResponse, ApiSchema, getSchemaPath } from '@nestjs/swagger';
import type { ResponseObject } from '@nestjs/swagger';
import { ERROR_STATUS } from '@shared/errors';
import { FORMS_SCOPES } from '@forms/accounts';
import { FORMS_ERROR_CODES } from '@forms/contracts';

const ERROR_CODES = Object.keys(FORMS_ERROR_CODES).sort();

class ResourceRefDto {
  @ApiProperty() type!: string;
  @ApiProperty() id!: string;
}

class ErrorDetailsDto {
  @ApiPropertyOptional({ description: 'The request field at fault, as a path (`draftSchema.steps[0].fields[1].type`).' }) field?: string;
  @ApiPropertyOptional({ description: 'A narrower code for the failure of that field.' }) reason?: string;
  @ApiPropertyOptional({ type: ResourceRefDto, description: 'The record that was not found.' }) resource?: ResourceRefDto;
}

class IssueDto {
  @ApiProperty({ description: 'Where the problem is.' }) path!: string;
  @ApiProperty({ enum: ERROR_CODES }) code!: string;
  @ApiProperty() message!: string;
}

@ApiSchema({ name: 'ErrorBody' })
class ErrorBodyDto {
  @ApiProperty({ enum: Object.keys(ERROR_STATUS) }) type!: string;
  @ApiProperty({ enum: ERROR_CODES, description: 'Stable and machine-readable; match on it, not on the message.' }) code!: string;
  @ApiProperty({ description: 'Plain-language explanation, safe to show.' }) message!: string;
  @ApiPropertyOptional({ type: ErrorDetailsDto }) details?: ErrorDetailsDto;
  @ApiPropertyOptional({ type: [IssueDto], description: 'Every problem found (draft validation, publishing, missing answers).' }) issues?: IssueDto[];
  @ApiPropertyOptional({ type: 'integer', description: 'stale_draft_revision: the revision to reload and build on.' }) current_draft_revision?: number;
  @ApiPropertyOptional({ type: 'integer', description: 'draft_too_large: the most bytes a draft may have.' }) max_draft_bytes?: number;
  @ApiPropertyOptional({ enum: FORMS_SCOPES, isArray: true, description: 'insufficient_scope: what the operation needs.' }) required_scopes?: string[];
  @ApiPropertyOptional({ enum: FORMS_SCOPES, isArray: true, description: 'insufficient_scope: what the key lacks.' }) missing_scopes?: string[];
  @ApiPropertyOptional({ enum: FORMS_SCOPES, isArray: true, description: 'insufficient_scope: the scopes a replacement key should have.' })
  replacement_scopes?: string[];
  @ApiPropertyOptional({ description: 'insufficient_scope: the kind of credential used.' }) credential_type?: string;
  @ApiPropertyOptional({ description: "insufficient_role: the caller's role in the workspace." }) role?: string;
  @ApiPropertyOptional({ type: [String], description: 'insufficient_role: the roles that may do this.' }) required_roles?: string[];
}

/** The envelope of every non-2xx answer, whatever the status. */
@ApiSchema({ name: 'Error' })
export class ErrorResponseDto {
  @ApiProperty({ type: ErrorBodyDto }) error!: ErrorBodyDto;
}

/** The statuses a route may answer with besides the ones every authenticated route has (401, 403, 429). */
export type ErrorStatus = 400 | 404 | 409 | 413;

const MEANING: Record<ErrorStatus | 401 | 403 | 429, string> = {
  400: 'The request is invalid; `code` says why and `details.field` (or `issues`) where.',
  401: 'The API key is missing, malformed, unknown, revoked or expired.',
  403: 'The key lacks a scope, the owner’s workspace role does not allow the operation, or the form takes no submissions.',
  404: 'The form (or the step, field, submission or upload in the path) does not exist in a workspace the key’s owner belongs to.',
  409: 'The draft changed since the `draft_revision` sent, the edit would break another part of the draft, or the state does not allow it.',
  413: 'The draft is larger than the service accepts.',
  429: 'Too many requests; retry after the seconds in `Retry-After`.',
};

/** Documents the error statuses a route answers with, each as the one `Error` envelope. */
export const ApiErrors = (...statuses: ErrorStatus[]) =>
  applyDecorators(...statuses.map((status) => ApiResponse({ status, description: MEANING[status], schema: { $ref: getSchemaPath(ErrorResponseDto) } })));

/** The answers every authenticated operation may give (the generator adds them), as OpenAPI response objects. */
export const AUTHENTICATED_ERRORS: Record<string, ResponseObject> = Object.fromEntries(
  ([401, 403, 429] as const).map((status) => [
    String(status),
    { description: MEANING[status], content: { 'application/json': { schema: { $ref: getSchemaPath(ErrorResponseDto) } } } },
  ]),
);
