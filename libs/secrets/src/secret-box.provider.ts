import type { Provider } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { SecretBox } from './secret-box';

/** SecretBox from ENCRYPTION_KEY (active) and ENCRYPTION_KEYS_RETIRED (still opened during a rotation). */
export const secretBoxProvider: Provider = {
  provide: SecretBox,
  inject: [APP_CONFIG],
  useFactory: (config: AppConfig) => new SecretBox(config.encryptionKey, config.encryptionKeysRetired),
};
