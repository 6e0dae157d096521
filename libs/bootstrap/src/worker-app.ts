import { DynamicModule, INestApplicationContext, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { createServer, Server } from 'node:http';
import { APP_CONFIG, AppConfig, ConfigModule, loadConfig } from '@shared/config';
import { CoreModule } from '@shared/core';
import { QueueModule } from '@shared/queue';
import { RedisModule } from '@shared/redis';
import { createLogger, createQueueMetrics, PinoNestLogger } from '@shared/observability';
import { READINESS_CHECKS, ReadinessCheck, runReadiness } from './readiness';
import { exitOnSignal } from './shutdown';

export interface WorkerOptions {
  service: string;
  defaultHealthPort: number;
  queues: readonly string[];
}

export interface RunningWorker {
  app: INestApplicationContext;
  healthServer: Server;
  healthPort: number;
  /** Closes the health port and the app (processors finish their active jobs), within the shutdown deadline. */
  stop(): Promise<void>;
}

/** A worker process: a Nest application context (no HTTP API) plus a small health/metrics port. */
export async function startWorker(module: Type<unknown>, options: WorkerOptions): Promise<RunningWorker> {
  const config = loadConfig(process.env, { healthPort: options.defaultHealthPort });
  const logger = createLogger(config, options.service);
  const app = await NestFactory.createApplicationContext(module, { logger: new PinoNestLogger(logger), bufferLogs: true });
  const effective = app.get<AppConfig>(APP_CONFIG);
  const checks = app.get<ReadinessCheck[]>(READINESS_CHECKS);
  const registry = createQueueMetrics(options.queues.map((name) => app.get<Queue>(getQueueToken(name))));

  const healthServer = createServer((req, res) => {
    const reply = (status: number, body: string, type = 'application/json') => {
      res.writeHead(status, { 'content-type': type });
      res.end(body);
    };
    if (req.url === '/healthz') return reply(200, JSON.stringify({ status: 'ok' }));
    if (req.url === '/readyz') {
      return void runReadiness(checks).then((report) => reply(report.status === 'ok' ? 200 : 503, JSON.stringify(report)));
    }
    if (req.url === '/metrics') {
      return void registry.metrics().then(
        (text) => reply(200, text, registry.contentType),
        () => reply(503, 'metrics unavailable', 'text/plain'),
      );
    }
    reply(404, JSON.stringify({ error: { type: 'not_found', code: 'route_not_found', message: 'Not found.' } }));
  });
  await new Promise<void>((resolve) => healthServer.listen(effective.healthPort, effective.host, resolve));
  const address = healthServer.address();
  const healthPort = typeof address === 'object' && address ? address.port : effective.healthPort;
  logger.info({ healthPort, queues: options.queues }, `${options.service} started`);

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      healthServer.close();
      await app.close();
    })());
  return { app, healthServer, healthPort, stop };
}

/**
 * Runs a worker until SIGTERM/SIGINT. Active jobs get until the deadline to finish; past it the process exits
 * and BullMQ hands the unfinished jobs back to the queue once their locks lapse.
 */
export async function runWorker(module: Type<unknown>, options: WorkerOptions): Promise<void> {
  // Signals are handled before the health port opens, so a SIGTERM can never find the default handler.
  const starting = startWorker(module, options);
  const { shutdownTimeoutMs } = loadConfig(process.env, { healthPort: options.defaultHealthPort });
  exitOnSignal(options.service, shutdownTimeoutMs, async () => (await starting).stop());
  await starting;
}

/** What every worker module imports: config, ids/clock, Redis, BullMQ and its own queues. */
export function workerImports(healthPort: number, queues: readonly string[]): DynamicModuleOrType[] {
  return [ConfigModule.forRoot({ healthPort }), CoreModule, RedisModule, QueueModule.forRoot(), QueueModule.register(...queues)];
}

type DynamicModuleOrType = DynamicModule | Type<unknown>;
