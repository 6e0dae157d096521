import { Readable } from 'node:stream';
import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { createTestDatabase, TestDatabase, uniqueQueuePrefix } from '@shared/testing';
import { UsersService } from '@email/oauth';
import { AdminModule } from '../src/admin.module';
import { COMMANDS } from '../src/commands';

/** create-user: a person who signs in to approve agent apps, the password read from standard input, never an option. */
describe('admin-cli: create-user', () => {
  let email: TestDatabase;
  let forms: TestDatabase;
  let app: INestApplicationContext;

  /** Runs a command with `stdin` as its standard input. */
  async function run(args: string[], stdin: string): Promise<Record<string, unknown>> {
    const original = process.stdin;
    Object.defineProperty(process, 'stdin', { value: Readable.from([stdin]), configurable: true });
    try {
      return (await COMMANDS['create-user'](app, args)) as Record<string, unknown>;
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

  it('creates the user in the workspaces, then adds an existing user to another one', async () => {
    const a = (await COMMANDS['create-workspace'](app, ['--name', 'A'])) as { workspace_id: string };
    const b = (await COMMANDS['create-workspace'](app, ['--name', 'B'])) as { workspace_id: string };
    const created = await run(['--email', 'Ops@Example.test', '--name', 'Ops', '--workspace', a.workspace_id], 'a long enough password\n');
    expect(created).toEqual({ user_id: expect.stringMatching(/^usr_/), created: true, workspace_ids: [a.workspace_id] });
    const users = app.get(UsersService);
    expect(await users.checkPassword('ops@example.test', 'a long enough password')).toBe(created.user_id);
    expect(await users.checkPassword('ops@example.test', 'a long enough password\n')).toBeNull();

    const added = await run(['--email', 'ops@example.test', '--workspace', b.workspace_id], '');
    expect(added).toEqual({ user_id: created.user_id, created: false, workspace_ids: [b.workspace_id] });
    expect((await users.workspacesOf(created.user_id as string)).map((w) => w.name)).toEqual(['A', 'B']);
  });

  it('refuses a short password, an unknown workspace and a password given as an option', async () => {
    const a = (await COMMANDS['create-workspace'](app, ['--name', 'C'])) as { workspace_id: string };
    await expect(run(['--email', 'x@example.test', '--workspace', a.workspace_id], 'short')).rejects.toMatchObject({ code: 'validation_failed' });
    await expect(run(['--email', 'y@example.test', '--workspace', 'wsp_missing'], 'a long enough password')).rejects.toMatchObject({
      code: 'workspace_not_found',
    });
    await expect(run(['--email', 'z@example.test', '--workspace', a.workspace_id, '--password', 'x'], '')).rejects.toMatchObject({ code: 'invalid_option' });
  });
});
