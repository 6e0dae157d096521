import { UsersService } from '@email/oauth';
import { AdminCli, startAdminCli } from './admin-cli.fixture';

/** create-user: a person who signs in to approve agent apps, the password read from standard input, never an option. */
describe('admin-cli: create-user', () => {
  let cli: AdminCli;
  const run = (args: string[], stdin: string) => cli.runWithStdin('create-user', args, stdin);

  beforeAll(async () => {
    cli = await startAdminCli();
  });
  afterAll(() => cli?.close());

  it('creates the user in the workspaces, then adds an existing user to another one', async () => {
    const a = await cli.run<{ workspace_id: string }>('create-workspace', ['--name', 'A']);
    const b = await cli.run<{ workspace_id: string }>('create-workspace', ['--name', 'B']);
    const created = await run(['--email', 'Ops@Example.test', '--name', 'Ops', '--workspace', a.workspace_id], 'a long enough password\n');
    expect(created).toEqual({ user_id: expect.stringMatching(/^usr_/), created: true, workspace_ids: [a.workspace_id] });
    const users = cli.app.get(UsersService);
    expect(await users.checkPassword('ops@example.test', 'a long enough password')).toBe(created.user_id);
    expect(await users.checkPassword('ops@example.test', 'a long enough password\n')).toBeNull();

    const added = await run(['--email', 'ops@example.test', '--workspace', b.workspace_id], '');
    expect(added).toEqual({ user_id: created.user_id, created: false, workspace_ids: [b.workspace_id] });
    expect((await users.workspacesOf(created.user_id as string)).map((w) => w.name)).toEqual(['A', 'B']);
  });

  it('refuses a short password, an unknown workspace and a password given as an option', async () => {
    const a = await cli.run<{ workspace_id: string }>('create-workspace', ['--name', 'C']);
    await expect(run(['--email', 'x@example.test', '--workspace', a.workspace_id], 'short')).rejects.toMatchObject({ code: 'validation_failed' });
    await expect(run(['--email', 'y@example.test', '--workspace', 'wsp_missing'], 'a long enough password')).rejects.toMatchObject({
      code: 'workspace_not_found',
    });
    await expect(run(['--email', 'z@example.test', '--workspace', a.workspace_id, '--password', 'x'], '')).rejects.toMatchObject({ code: 'invalid_option' });
  });
});
