import { Inject, Injectable } from '@nestjs/common';
import { CREDENTIAL_VERIFIER, CredentialVerifier, Principal } from '@shared/auth';
import { DomainError, toErrorResponse } from '@shared/errors';
import type { RouteResponse } from '@shared/mcp';
import { WorkspaceContextResolver } from '@forms/forms';
import { SubmissionExportService } from '@forms/exports';
import type { SubmissionExportsPort } from '@forms/mcp';

const EXPORT_SCOPES = ['submissions:read'];

/**
 * The MCP export tools' way into SubmissionExportService, as the caller: the submissions:read scope, then the form's
 * workspace with the owner's live role (viewers may export, as they may read responses), exactly as the app session.
 */
@Injectable()
export class ExportsAsCaller {
  constructor(
    private readonly resolver: WorkspaceContextResolver,
    private readonly exports: SubmissionExportService,
    @Inject(CREDENTIAL_VERIFIER) private readonly verifier: CredentialVerifier,
  ) {}

  portFor(principal: Principal): SubmissionExportsPort {
    return {
      start: (formId, body, idempotencyKey) =>
        this.answer(principal, formId, 202, (workspaceId) => this.exports.start(workspaceId, formId, body, { idempotencyKey })),
      get: (formId, exportId) => this.answer(principal, formId, 200, (workspaceId) => this.exports.get(workspaceId, formId, exportId)),
    };
  }

  private async answer(
    principal: Principal,
    formId: string,
    status: number,
    run: (workspaceId: Awaited<ReturnType<WorkspaceContextResolver['forForm']>>['workspaceId']) => Promise<unknown>,
  ): Promise<RouteResponse> {
    try {
      const missing = EXPORT_SCOPES.filter((scope) => !principal.scopes.includes(scope));
      if (missing.length) throw this.verifier.insufficientScope(principal, EXPORT_SCOPES, missing);
      const workspace = await this.resolver.forForm(principal, formId, 'view');
      return { status, headers: {}, body: { data: await run(workspace.workspaceId) } };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const { status: errorStatus, body, headers } = toErrorResponse(error);
      return { status: errorStatus, headers, body };
    }
  }
}
