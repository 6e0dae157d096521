import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { clientSubject } from '@shared/rate-limit';
import { RequestLimiter } from './request-limiter';

/**
 * The limits on what respondents reach without a key (see the FORMS_*_PER_* settings). Payment orders, when they
 * come, add a method here on the same limiter: the client IP first, then the form.
 */
@Injectable()
export class PublicLimits {
  constructor(
    private readonly limiter: RequestLimiter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  submission(clientIp: string, publicId: string): Promise<void> {
    return this.limiter.consume([
      { scope: 'submission-ip', subject: clientSubject(clientIp), limit: this.config.formsSubmissionsPerIp },
      { scope: 'submission-form', subject: publicId, limit: this.config.formsSubmissionsPerForm },
    ]);
  }

  upload(clientIp: string, publicId: string): Promise<void> {
    return this.limiter.consume([
      { scope: 'upload-ip', subject: clientSubject(clientIp), limit: this.config.formsUploadsPerIp },
      { scope: 'upload-form', subject: publicId, limit: this.config.formsUploadsPerForm },
    ]);
  }

  /** Page views are counted without a Redis round trip each: the page itself is served from memory. */
  hostedPage(clientIp: string): void {
    this.limiter.consumeBuffered({ scope: 'page-ip', subject: clientSubject(clientIp), limit: this.config.formsHostedPagesPerIp });
  }
}
