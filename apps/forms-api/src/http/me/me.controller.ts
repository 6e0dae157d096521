import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Principal } from '@shared/auth';
import { MeCredential, MeDto, toMe } from '@forms/accounts';

@ApiTags('Account')
@Controller('api/v1/me')
export class MeController {
  @Get()
  @ApiOperation({ operationId: 'getMe', summary: 'Check the API key and its owner' })
  @ApiOkResponse({ type: MeDto })
  me(@CurrentPrincipal() principal: Principal): MeDto {
    return toMe(principal.credential as MeCredential);
  }
}
