import { OwnerSignIn } from '@forms/oauth';
import { AdminCli, startAdminCli } from './admin-cli.fixture';

/** forms:set-password: the password a forms owner signs in to the browser pages with, read from standard input. */
describe('admin-cli: forms:set-password', () => {
  let cli: AdminCli;
  const run = (args: string[], stdin: string) => cli.runWithStdin('forms:set-password', args, stdin);

  beforeAll(async () => {
    cli = await startAdminCli();
  });
  afterAll(() => cli?.close());

  it("sets and replaces an owner's password (argon2id), which then signs them in", async () => {
    const account = await cli.run<{ owner_id: string }>('forms:create-account', ['--email', 'owner@example.test']);
    const signIn = cli.app.get(OwnerSignIn);
    expect(await signIn.checkPassword('owner@example.test', 'a long enough password')).toBeNull();
    expect(await run(['--email', 'Owner@Example.test'], 'a long enough password\n')).toEqual({ owner_id: account.owner_id, email: 'owner@example.test' });
    expect(await signIn.checkPassword('owner@example.test', 'a long enough password')).toBe(account.owner_id);
    await run(['--email', 'owner@example.test'], 'another long password');
    expect(await signIn.checkPassword('owner@example.test', 'a long enough password')).toBeNull();
    expect(await signIn.checkPassword('owner@example.test', 'another long password')).toBe(account.owner_id);
  });

  it('refuses a short password, an unknown owner and a password given as an option', async () => {
    await cli.run('forms:create-account', ['--email', 'second@example.test']);
    await expect(run(['--email', 'second@example.test'], 'short')).rejects.toMatchObject({ code: 'validation_failed' });
    await expect(run(['--email', 'nobody@example.test'], 'a long enough password')).rejects.toMatchObject({ code: 'validation_failed' });
    await expect(run(['--email', 'second@example.test', '--password', 'x'], '')).rejects.toMatchObject({ code: 'invalid_option' });
  });
});
