import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { toErrorResponse } from '@shared/errors';
import { AdminModule } from './admin.module';
import { COMMANDS } from './commands';

/** `npm run admin -- <command> [--option value ...]`: prints one JSON document on stdout. */
async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  const command = name ? COMMANDS[name] : undefined;
  if (!command) {
    process.stderr.write(`usage: npm run admin -- <command> [options]\ncommands: ${Object.keys(COMMANDS).join(', ')}\n`);
    return 2;
  }
  const app = await NestFactory.createApplicationContext(AdminModule, { logger: false });
  try {
    process.stdout.write(`${JSON.stringify(await command(app, args))}\n`);
    return 0;
  } catch (error) {
    const { body, status } = toErrorResponse(error);
    if (status >= 500) process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.stderr.write(`${JSON.stringify(body)}\n`);
    return status < 500 ? 1 : 3;
  } finally {
    await app.close();
  }
}

void main(process.argv.slice(2)).then((code) => process.exit(code));
