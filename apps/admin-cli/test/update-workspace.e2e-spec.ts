import { DomainError } from '@shared/errors';
import { AdminCli, startAdminCli } from './admin-cli.fixture';

/** The workspace's name and postal address (the footer of every marketing email) are set by an operator. */
describe('admin-cli: update-workspace', () => {
  let cli: AdminCli;

  const run = (name: string, args: string[]) => cli.run<Record<string, string | null>>(name, args);
  const refusal = (args: string[]) =>
    run('update-workspace', args).then(
      () => null,
      (error: DomainError) => error.toBody(),
    );

  beforeAll(async () => {
    cli = await startAdminCli();
  });
  afterAll(() => cli?.close());

  it('sets the given fields, clears one given empty, and leaves the others', async () => {
    const { workspace_id } = await run('create-workspace', ['--name', 'Northwind']);
    const set = await run('update-workspace', ['--workspace', workspace_id!, '--address', ' 1 Harbour Road ', '--city', 'Bristol', '--postal-code', 'BS1 4RN']);
    expect(set).toMatchObject({ id: workspace_id, name: 'Northwind', address: '1 Harbour Road', city: 'Bristol', postal_code: 'BS1 4RN', state: null });
    const cleared = await run('update-workspace', ['--workspace', workspace_id!, '--city', '', '--name', 'Northwind Coffee']);
    expect(cleared).toMatchObject({ name: 'Northwind Coffee', address: '1 Harbour Road', city: null, postal_code: 'BS1 4RN' });
  });

  it('refuses a blank name, an over-long field, no change and an unknown workspace, naming what is wrong', async () => {
    const { workspace_id } = await run('create-workspace', ['--name', 'Other']);
    expect(await refusal(['--workspace', workspace_id!, '--name', '  '])).toMatchObject({ code: 'validation_failed', details: { field: 'name' } });
    expect(await refusal(['--workspace', workspace_id!, '--address', 'x'.repeat(256)])).toMatchObject({ details: { field: 'address' } });
    expect(await refusal(['--workspace', workspace_id!])).toMatchObject({ code: 'empty_update' });
    expect(await refusal(['--workspace', 'wsp_missing', '--city', 'Leeds'])).toMatchObject({ code: 'workspace_not_found' });
  });
});
