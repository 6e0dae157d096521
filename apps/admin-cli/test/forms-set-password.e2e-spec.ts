import { Readable } from 'node:stream';
import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { createTestDatabase, TestDatabase, uniqueQueuePrefix } from '@shared/testing';
import { OwnerSignIn } from '@forms/oauth';
import { AdminModule } from '../src/admin.module';
import { COMMANDS } from '../src/commands';

/** forms:set-password: the password a forms owner signs in to the browser pages with, read from standard input. */
describe('admin-cli: forms:set-password', () => {
  let email: TestDatabase;
  let forms: TestDatabase;
  let app: INestApplicationContext;

  async function run(args: string[], stdin: string): Promise<Record<string, unknown>> {
    const original = process.stdin;
    Object.defineProperty(process, 'stdin', { value: Readable.from([stdin]), configurable: true });
    try {
      return (await COMMANDS['forms:set-password'](app, args)) as Record<string, unknown>;
    } finally {
      Object.defineProperty(process, 'stdin', { value: original, configurable: true });
    }
  }

  beforeAll(async () => {
    [email, forms] = await Promise.all([createTestDatabase('email'), createTestDatabase('forms')]);
    Object.assign(process.env, { NODE_ENV: 'test', EMAIL_DATABASE_URL: email.url, FORMS_DATABASE_URL: forms.url, QUEUE_PREFIX: uniqueQueuePrefix() });
    app = await NestFactory.createApplicationContext(AdminModule, { logger: false });
  });
  afterAll(async () => {
    await app?.close();
    await Promise.all([email?.drop(), forms?.drop()]);
  });

  it("sets and replaces an owner's password (argon2id), which then signs them in", async () => {
    const account = (await COMMANDS['forms:create-account'](app, ['--email', 'owner@example.test'])) as { owner_id: string };
    const signIn = app.get(OwnerSignIn);
    expect(await signIn.checkPassword('owner@example.test', 'a long enough password')).toBeNull();
    expect(await run(['--email', 'Owner@Example.test'], 'a long enough password\n')).toEqual({ owner_id: account.owner_id, email: 'owner@example.test' });
    expect(await signIn.checkPassword('owner@example.test', 'a long enough password')).toBe(account.owner_id);
    await run(['--email', 'owner@example.test'], 'another long password');
    expect(await signIn.checkPassword('owner@example.test', 'a long enough password')).toBeNull();
    expect(await signIn.checkPassword('owner@example.test', 'another long password')).toBe(account.owner_id);
  });

  it('refuses a short password, an unknown owner and a password given as an option', async () => {
    await COMMANDS['forms:create-account'](app, ['--email', 'second@example.test']);
    await expect(run(['--email', 'second@example.test'], 'short')).rejects.toMatchObject({ code: 'validation_failed' });
    await expect(run(['--email', 'nobody@example.test'], 'a long enough password')).rejects.toMatchObject({ code: 'validation_failed' });
    await expect(run(['--email', 'second@example.test', '--password', 'x'], '')).rejects.toMatchObject({ code: 'invalid_option' });
  });
});
