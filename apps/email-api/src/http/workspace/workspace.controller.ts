import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScopes } from '@shared/auth';
import { WorkspaceResponseDto, WorkspaceService } from '@email/workspace';
import { CurrentWorkspace, EmailWorkspaceContext } from '@email/access';

@ApiTags('Workspace')
@ApiBearerAuth('WorkspaceApiKey')
@Controller('v1/workspace')
export class WorkspaceController {
  constructor(private readonly workspaces: WorkspaceService) {}

  @Get()
  @RequireScopes('workspace:read')
  @ApiOperation({ operationId: 'getWorkspace', summary: 'Get the current workspace' })
  @ApiOkResponse({ type: WorkspaceResponseDto })
  async get(@CurrentWorkspace() workspace: EmailWorkspaceContext): Promise<WorkspaceResponseDto> {
    return { data: await this.workspaces.get(workspace.workspaceId) };
  }
}
