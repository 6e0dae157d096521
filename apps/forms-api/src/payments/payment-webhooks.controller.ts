import { Controller, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Public } from '@shared/auth';
import { PaymentsService } from '@forms/payments';
import { rawBodyOf } from '@shared/bootstrap';

/** Inbound provider webhooks; the URL names the workspace whose webhook secret must have signed the body. */
@ApiExcludeController()
@Public()
@Controller('api/payments/:provider/webhook')
export class PaymentWebhooksController {
  constructor(private readonly payments: PaymentsService) {}

  @Post()
  @HttpCode(200)
  async receive(@Param('provider') provider: string, @Query('workspace_id') workspaceId: string | undefined, @Req() request: FastifyRequest) {
    const name = this.payments.providerNamed(provider);
    return { data: await this.payments.webhook(name, typeof workspaceId === 'string' ? workspaceId : undefined, rawBodyOf(request), request.headers) };
  }
}
