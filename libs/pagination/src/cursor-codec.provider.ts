import { Provider } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { CursorCodec } from './cursor';

export const cursorCodecProvider: Provider = {
  provide: CursorCodec,
  inject: [APP_CONFIG],
  useFactory: (config: AppConfig) => new CursorCodec(config.cursorSecret),
};
