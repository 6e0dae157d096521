import { Readable } from 'node:stream';
import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { createTestDatabase, TestDatabase, uniqueQueuePrefix } from '@shared/testing';
import { AdminModule } from '../src/admin.module';
import { COMMANDS } from '../src/commands';

export interface AdminCli {
  app: INestApplicationContext;
  email: TestDatabase;
  forms: TestDatabase;
  /** Runs a command as the CLI does and returns what it prints. */
  run<T = Record<string, unknown>>(command: string, args: string[]): Promise<T>;
  /** Runs a command with `stdin` as its standard input (where passwords come from, never from options). */
  runWithStdin<T = Record<string, unknown>>(command: string, args: string[], stdin: string): Promise<T>;
  close(): Promise<void>;
}

/**
 * The admin CLI's module on fresh email and forms databases, configured through the environment as the CLI reads it
 * (`env` adds to or overrides the databases, NODE_ENV and a queue prefix of its own).
 */
export async function startAdminCli(env: Record<string, string> = {}): Promise<AdminCli> {
  const [email, forms] = await Promise.all([createTestDatabase('email'), createTestDatabase('forms')]);
  Object.assign(process.env, { NODE_ENV: 'test', EMAIL_DATABASE_URL: email.url, FORMS_DATABASE_URL: forms.url, QUEUE_PREFIX: uniqueQueuePrefix(), ...env });
  const app = await NestFactory.createApplicationContext(AdminModule, { logger: false });
  const run = async <T>(command: string, args: string[]) => (await COMMANDS[command](app, args)) as T;
  return {
    app,
    email,
    forms,
    run,
    runWithStdin: async <T>(command: string, args: string[], stdin: string) => {
      const original = process.stdin;
      Object.defineProperty(process, 'stdin', { value: Readable.from([stdin]), configurable: true });
      try {
        return await run<T>(command, args);
      } finally {
        Object.defineProperty(process, 'stdin', { value: original, configurable: true });
      }
    },
    close: async () => {
      await app.close();
      await Promise.all([email.drop(), forms.drop()]);
    },
  };
}
