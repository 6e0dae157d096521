import { INestApplication, Injectable } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import { keepRawBodies, OnHttpAppConfigured } from '@shared/bootstrap';

export const PAYMENT_WEBHOOK_ROUTE = '/api/payments/:provider/webhook';

/** Payment providers sign the raw body of their webhooks: the route keeps it beside the parsed one. */
@Injectable()
export class PaymentWebhookBody implements OnHttpAppConfigured {
  onHttpAppConfigured(app: INestApplication): void {
    keepRawBodies(app.getHttpAdapter().getInstance() as FastifyInstance, PAYMENT_WEBHOOK_ROUTE);
  }
}
