import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Principal, RequireScopes } from '@shared/auth';
import { FormStarts, WorkspaceListDto } from '@forms/forms';

@ApiTags('Workspaces')
@Controller('api/v1/workspaces')
export class WorkspacesController {
  constructor(private readonly starts: FormStarts) {}

  @Get()
  @RequireScopes('forms:read')
  @ApiOperation({ operationId: 'listWorkspaces', summary: "List the key owner's workspaces and where to create forms" })
  @ApiOkResponse({ type: WorkspaceListDto })
  list(@CurrentPrincipal() principal: Principal): Promise<WorkspaceListDto> {
    return this.starts.workspaces(principal);
  }
}
