import { Inject, Injectable, Logger } from '@nestjs/common';
import { CREDENTIAL_VERIFIER, CredentialVerifier, Principal } from '@shared/auth';
import { findUnstorableInput, toErrorResponse } from '@shared/errors';
import type { RouteResponse } from '@shared/mcp';
import { WorkspaceContextResolver } from '@forms/forms';
import { SubmissionExportService } from '@forms/exports';
import type { SubmissionExportsPort } from '@forms/mcp';

const EXPORT_SCOPES = ['submissions:read'];

/**
 * The MCP export tools' way into SubmissionExportService, as the caller: the submissions:read scope, the checks the
 * REST validation pipe makes of every input (no NUL or unpaired surrogate, named by the tool's argument), then the
 * form's workspace with the owner's live role (viewers may export, as they may read responses), exactly as the app
 * session. Every failure is answered as the REST error envelope; an unexpected one is logged, its text never shown.
 */
@Injectable()
export class ExportsAsCaller {
  private readonly logger = new Logger('Errors');

  constructor(
    private readonly resolver: WorkspaceContextResolver,
    private readonly exports: SubmissionExportService,
    @Inject(CREDENTIAL_VERIFIER) private readonly verifier: CredentialVerifier,
  ) {}

  portFor(principal: Principal): SubmissionExportsPort {
    return {
      start: (formId, body, idempotencyKey) =>
        this.answer(principal, { formId, ...body, idempotencyKey }, 202, (workspaceId) => this.exports.start(workspaceId, formId, body, { idempotencyKey })),
      get: (formId, exportId) => this.answer(principal, { formId, exportId }, 200, (workspaceId) => this.exports.get(workspaceId, formId, exportId)),
    };
  }

  private async answer(
    principal: Principal,
    args: { formId: string } & Record<string, unknown>,
    status: number,
    run: (workspaceId: Awaited<ReturnType<WorkspaceContextResolver['forForm']>>['workspaceId']) => Promise<unknown>,
  ): Promise<RouteResponse> {
    try {
      const missing = EXPORT_SCOPES.filter((scope) => !principal.scopes.includes(scope));
      if (missing.length) throw this.verifier.insufficientScope(principal, EXPORT_SCOPES, missing);
      const unstorable = findUnstorableInput(args, '');
      if (unstorable) throw unstorable;
      const workspace = await this.resolver.forForm(principal, args.formId, 'view');
      return { status, headers: {}, body: { data: await run(workspace.workspaceId) } };
    } catch (error) {
      const { status: errorStatus, body, headers, unexpected } = toErrorResponse(error);
      if (unexpected) this.logger.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
      return { status: errorStatus, headers, body };
    }
  }
}
