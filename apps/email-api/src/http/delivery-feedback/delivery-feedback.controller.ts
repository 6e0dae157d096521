import { Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Public } from '@shared/auth';
import { DeliveryFeedbackResult, DeliveryFeedbackService } from '@email/delivery';
import { rawBodyOf } from '@shared/bootstrap';

/**
 * The inbound webhook each delivery provider posts its bounces and complaints to, one URL per connection. No API key:
 * the provider's signature or the connection's feedback token is the authority (see DeliveryFeedbackService). Not
 * part of the API, so not in the OpenAPI document.
 */
@ApiExcludeController()
@Public()
@Controller('v1/delivery-feedback')
export class DeliveryFeedbackController {
  constructor(private readonly feedback: DeliveryFeedbackService) {}

  @Post(':connection_id')
  @HttpCode(200)
  async receive(@Param('connection_id') connectionId: string, @Req() request: FastifyRequest): Promise<{ data: DeliveryFeedbackResult }> {
    return { data: await this.feedback.receive(connectionId, { body: rawBodyOf(request), headers: request.headers }) };
  }
}
