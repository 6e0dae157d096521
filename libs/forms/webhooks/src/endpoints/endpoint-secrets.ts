import { Injectable } from '@nestjs/common';
import { SecretBox } from '@shared/secrets';
import { SigningSecrets } from '@shared/webhooks';

/** An endpoint's sealed signing secret, bound to its id. */
@Injectable()
export class EndpointSecrets extends SigningSecrets {
  constructor(box: SecretBox) {
    super(box, 'webhook_endpoint');
  }
}
