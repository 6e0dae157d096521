import { Type } from '@nestjs/common';
import { Test, TestingModuleBuilder } from '@nestjs/testing';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@shared/config';
import { configureHttpApp, createFastifyAdapter, HttpAppOptions } from '@shared/bootstrap';

/**
 * Boots a real app module on Fastify for supertest, after pointing the environment at test resources.
 * The environment is set before the module compiles, because configuration is read at boot. `overrides` may replace
 * providers (e.g. `builder.overrideProvider(TOKEN).useValue(fake)`).
 */
export async function createTestApp(
  module: Type<unknown>,
  env: Record<string, string>,
  options: HttpAppOptions = { service: 'test' },
  overrides: (builder: TestingModuleBuilder) => TestingModuleBuilder = (builder) => builder,
): Promise<NestFastifyApplication> {
  Object.assign(process.env, { NODE_ENV: 'test', ...env });
  const moduleRef = await overrides(Test.createTestingModule({ imports: [module] })).compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(createFastifyAdapter(loadConfig(), options), { logger: false });
  configureHttpApp(app, options);
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return app;
}
