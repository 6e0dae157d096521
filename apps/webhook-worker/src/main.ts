import 'reflect-metadata';
import { runWorker } from '@shared/bootstrap';
import { HEALTH_PORT, QUEUES, WorkerModule } from './worker.module';

void runWorker(WorkerModule, { service: 'webhook-worker', defaultHealthPort: HEALTH_PORT, queues: QUEUES });
