import { Redis } from 'ioredis';
import { uniqueQueuePrefix } from '@shared/testing';
import { AdminCli, startAdminCli } from './admin-cli.fixture';

/** The admin commands that revoke keys or change roles tell the running APIs (their replicas evict at once). */
describe('admin-cli: revocation and role changes are published', () => {
  const prefix = uniqueQueuePrefix();
  let cli: AdminCli;
  let listener: Redis;
  const received: Array<{ channel: string; message: unknown }> = [];

  const run = (name: string, args: string[]) => cli.run<Record<string, string>>(name, args);
  const nextMessage = async (count: number) => {
    for (let waited = 0; received.length < count && waited < 2_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    return received[count - 1];
  };

  beforeAll(async () => {
    cli = await startAdminCli({ QUEUE_PREFIX: prefix });
    listener = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    listener.on('message', (channel: string, message: string) => received.push({ channel, message: JSON.parse(message) }));
    await listener.subscribe(`${prefix}:auth-changes:email`, `${prefix}:auth-changes:forms`);
  });
  afterAll(async () => {
    listener?.disconnect();
    await cli?.close();
  });

  it('revoke-api-key publishes the credential on the email channel', async () => {
    const workspace = await run('create-workspace', ['--name', 'Acme']);
    const key = await run('create-api-key', ['--workspace', workspace.workspace_id, '--scopes', 'workspace:read']);
    await run('revoke-api-key', ['--id', key.id]);
    expect(await nextMessage(1)).toEqual({ channel: `${prefix}:auth-changes:email`, message: { kind: 'credential', id: key.id, epoch: expect.any(Number) } });
  });

  it('forms:set-member and forms:revoke-api-key publish on the forms channel', async () => {
    const owner = await run('forms:create-account', ['--email', 'owner@example.com']);
    const member = await run('forms:create-account', ['--email', 'member@example.com']);
    await run('forms:set-member', ['--workspace', owner.workspace_id, '--owner', member.owner_id, '--role', 'viewer']);
    expect(await nextMessage(2)).toEqual({
      channel: `${prefix}:auth-changes:forms`,
      message: { kind: 'owner', id: member.owner_id, epoch: expect.any(Number) },
    });
    const key = await run('forms:create-api-key', ['--owner', owner.owner_id, '--scopes', 'forms:read']);
    await run('forms:revoke-api-key', ['--id', key.id]);
    expect(await nextMessage(3)).toEqual({ channel: `${prefix}:auth-changes:forms`, message: { kind: 'credential', id: key.id, epoch: expect.any(Number) } });
  });
});
