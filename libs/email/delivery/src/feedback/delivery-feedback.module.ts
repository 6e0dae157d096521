import { DynamicModule, Module, ModuleMetadata, Provider } from '@nestjs/common';
import { EmailAudienceModule } from '@email/audience';
import { EmailEngagementModule } from '@email/audience-engine';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { DeliveryFeedbackRepository } from './delivery-feedback.repository';
import { DeliveryFeedbackService } from './delivery-feedback.service';
import { BrevoFeedback } from './sources/brevo.source';
import { MailgunFeedback } from './sources/mailgun.source';
import { PostmarkFeedback } from './sources/postmark.source';
import { ResendFeedback } from './sources/resend.source';
import { SendGridFeedback } from './sources/sendgrid.source';
import { SesFeedback } from './sources/ses.source';
import { SNS_OPTIONS, SnsMessages, SnsOptions } from './sources/sns-messages';

export interface DeliveryFeedbackModuleOptions {
  /** The provider of FEEDBACK_CONNECTIONS, and the modules it needs. */
  connections: Provider;
  imports?: ModuleMetadata['imports'];
}

/**
 * Inbound bounce and complaint feedback from the delivery providers (DeliveryFeedbackService). Needs
 * EmailDataAccessModule, CoreModule and the config (global in every email app).
 */
@Module({})
export class DeliveryFeedbackModule {
  static register(options: DeliveryFeedbackModuleOptions): DynamicModule {
    return {
      module: DeliveryFeedbackModule,
      imports: [EmailAudienceModule, EmailEngagementModule, ...(options.imports ?? [])],
      providers: [
        options.connections,
        // SNS hosts only where the services may leave the machine; tests override SNS_OPTIONS to trust loopback URLs.
        { provide: SNS_OPTIONS, inject: [APP_CONFIG], useFactory: (config: AppConfig): SnsOptions => ({ allowSnsHosts: config.allowNonLoopbackHosts }) },
        SnsMessages,
        SesFeedback,
        PostmarkFeedback,
        SendGridFeedback,
        MailgunFeedback,
        ResendFeedback,
        BrevoFeedback,
        DeliveryFeedbackRepository,
        DeliveryFeedbackService,
      ],
      exports: [DeliveryFeedbackService],
    };
  }
}
