import { INestApplication, Type } from '@nestjs/common';
import { HttpAdapterHost, ModulesContainer, NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { DestinationStream } from 'pino';
import { APP_CONFIG, AppConfig, loadConfig } from '@shared/config';
import { createValidationPipe, ErrorEnvelopeFilter, MAX_PATH_PARAM_LENGTH, UnknownProperties } from '@shared/errors';
import { createLogger, httpLoggingOptions, PinoNestLogger, registerAccessLog, registerRequestIdEcho, requestIdGenerator } from '@shared/observability';
import { httpEdgeOptions, registerHttpEdges } from './http-edges';
import { exitOnSignal } from './shutdown';

export interface HttpAppOptions {
  service: string;
  /** Response headers that echo the request id (the first is also read from the request). */
  requestIdHeaders?: string[];
  bodyLimitBytes?: number;
  /** Where log lines go (tests capture them); stdout when absent. */
  logStream?: DestinationStream;
  /** What validation does with properties a DTO does not declare; `refuse` when absent. */
  unknownProperties?: UnknownProperties;
}

/** Builds a Fastify adapter that assigns or accepts a request id and echoes it on every response. */
export function createFastifyAdapter(config: AppConfig, options: HttpAppOptions): FastifyAdapter {
  const echo = options.requestIdHeaders ?? ['x-request-id'];
  const adapter = new FastifyAdapter({
    ...httpLoggingOptions(config, options.service, options.logStream),
    ...httpEdgeOptions(config, echo),
    bodyLimit: options.bodyLimitBytes ?? 1024 * 1024,
    routerOptions: { maxParamLength: MAX_PATH_PARAM_LENGTH },
    trustProxy: config.trustProxy,
    genReqId: requestIdGenerator(echo),
  });
  // The APIs speak JSON only: anything else is a 415, not a string handed to validation.
  adapter.getInstance().removeContentTypeParser('text/plain');
  registerHttpEdges(adapter.getInstance(), config);
  registerAccessLog(adapter.getInstance(), config);
  registerRequestIdEcho(adapter.getInstance(), echo);
  return adapter;
}

/** A provider that needs the application itself (e.g. to generate its OpenAPI document) implements this. */
export interface OnHttpAppConfigured {
  onHttpAppConfigured(app: INestApplication): void;
}

/** Applies what every HTTP app shares: validation and the error envelope; then hands the app to OnHttpAppConfigured providers. */
export function configureHttpApp(app: INestApplication, options: Pick<HttpAppOptions, 'unknownProperties'> = {}): void {
  app.useGlobalPipes(createValidationPipe(options.unknownProperties));
  app.useGlobalFilters(new ErrorEnvelopeFilter(app.get(HttpAdapterHost)));
  const notified = new Set<unknown>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.providers.values()) {
      const instance = wrapper.isDependencyTreeStatic() && !wrapper.isTransient ? (wrapper.instance as Partial<OnHttpAppConfigured> | null) : null;
      if (typeof instance?.onHttpAppConfigured !== 'function' || notified.has(instance)) continue;
      notified.add(instance);
      instance.onHttpAppConfigured(app);
    }
  }
}

/** Boots an HTTP API on its configured port. */
export async function startHttpApp(module: Type<unknown>, options: HttpAppOptions & { defaultPort: number }): Promise<NestFastifyApplication> {
  const config = loadConfig(process.env, { port: options.defaultPort });
  const logger = createLogger(config, options.service);
  const app = await NestFactory.create<NestFastifyApplication>(module, createFastifyAdapter(config, options), {
    logger: new PinoNestLogger(logger),
    bufferLogs: true,
  });
  configureHttpApp(app, options);
  const effective = app.get<AppConfig>(APP_CONFIG);
  // Closing stops accepting connections, lets in-flight requests finish, then runs Nest's shutdown hooks.
  exitOnSignal(options.service, effective.shutdownTimeoutMs, () => app.close());
  await app.listen(effective.port, effective.host);
  logger.info({ port: effective.port }, `${options.service} listening`);
  return app;
}
