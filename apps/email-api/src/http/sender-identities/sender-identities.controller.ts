import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScopes } from '@shared/auth';
import { PageQueryDto } from '@shared/pagination';
import { SenderIdentityListDto, SenderIdentityResponseDto, SenderIdentityService } from '@email/delivery';
import { CurrentWorkspace, EmailWorkspaceContext } from '@email/access';
import { ApiErrorResponses } from '@email/platform';

@ApiTags('Sender Identities')
@ApiBearerAuth('WorkspaceApiKey')
@Controller('v1/sender-identities')
export class SenderIdentitiesController {
  constructor(private readonly identities: SenderIdentityService) {}

  @Get()
  @RequireScopes('workspace:read')
  @ApiOperation({ operationId: 'listSenderIdentities', summary: 'List sender identities' })
  @ApiErrorResponses(400)
  @ApiOkResponse({ type: SenderIdentityListDto })
  list(@CurrentWorkspace() workspace: EmailWorkspaceContext, @Query() query: PageQueryDto): Promise<SenderIdentityListDto> {
    return this.identities.list(workspace.workspaceId, query);
  }

  @Get(':sender_identity_id')
  @RequireScopes('workspace:read')
  @ApiOperation({ operationId: 'getSenderIdentity', summary: 'Get a sender identity' })
  @ApiErrorResponses(404)
  @ApiOkResponse({ type: SenderIdentityResponseDto })
  async get(@CurrentWorkspace() workspace: EmailWorkspaceContext, @Param('sender_identity_id') id: string): Promise<SenderIdentityResponseDto> {
    return { data: await this.identities.get(workspace.workspaceId, id) };
  }
}
