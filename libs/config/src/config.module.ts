import { DynamicModule, Global, Module } from '@nestjs/common';
import { AppConfig, loadConfig } from './config';

export const APP_CONFIG = Symbol('APP_CONFIG');

@Global()
@Module({})
export class ConfigModule {
  /** Validates the environment at boot; a bad value stops the process with every problem listed. */
  static forRoot(defaults: { port?: number; healthPort?: number } = {}, overrides?: Partial<AppConfig>): DynamicModule {
    return {
      module: ConfigModule,
      providers: [{ provide: APP_CONFIG, useFactory: (): AppConfig => ({ ...loadConfig(process.env, defaults), ...overrides }) }],
      exports: [APP_CONFIG],
    };
  }
}
