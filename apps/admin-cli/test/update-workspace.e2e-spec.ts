import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DomainError } from '@shared/errors';
import { createTestDatabase, TestDatabase, uniqueQueuePrefix } from '@shared/testing';
import { AdminModule } from '../src/admin.module';
import { COMMANDS } from '../src/commands';

/** The workspace's name and postal address (the footer of every marketing email) are set by an operator. */
describe('admin-cli: update-workspace', () => {
  let email: TestDatabase;
  let forms: TestDatabase;
  let app: INestApplicationContext;

  const run = async (name: string, args: string[]) => (await COMMANDS[name](app, args)) as Record<string, string | null>;
  const refusal = (args: string[]) =>
    run('update-workspace', args).then(
      () => null,
      (error: DomainError) => error.toBody(),
    );

  beforeAll(async () => {
    [email, forms] = await Promise.all([createTestDatabase('email'), createTestDatabase('forms')]);
    Object.assign(process.env, { NODE_ENV: 'test', EMAIL_DATABASE_URL: email.url, FORMS_DATABASE_URL: forms.url, QUEUE_PREFIX: uniqueQueuePrefix() });
    app = await NestFactory.createApplicationContext(AdminModule, { logger: false });
  });
  afterAll(async () => {
    await app?.close();
    await Promise.all([email?.drop(), forms?.drop()]);
  });

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
