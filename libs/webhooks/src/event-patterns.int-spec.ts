import { Client } from 'pg';
import { testServerUrl } from '@shared/testing';
import { patternsSelectSql } from './event-patterns';

describe('patternsSelectSql (real PostgreSQL)', () => {
  const client = new Client({ connectionString: testServerUrl() });
  beforeAll(() => client.connect());
  afterAll(() => client.end());

  const selects = async (patterns: string[], type: string): Promise<boolean> =>
    (await client.query<{ selects: boolean }>(`SELECT ${patternsSelectSql('$1::text[]', '$2::text')} AS selects`, [patterns, type])).rows[0].selects;

  it.each([
    [['subscriber.created'], 'subscriber.created', true],
    [['subscriber.created'], 'subscriber.updated', false],
    [['subscriber.*'], 'subscriber.status_changed', true],
    [['landing_page.*'], 'landing_page.submitted', true],
    [['form.*'], 'landing_page.submitted', false],
    [['broadcast.*', 'automation.completed'], 'automation.entered', false],
    [['broadcast.*', 'automation.completed'], 'automation.completed', true],
    [['*'], 'form.submitted', true],
    [['subscriber'], 'subscriber.created', false],
  ])('%j selects %s: %s', async (patterns, type, expected) => expect(await selects(patterns, type)).toBe(expected));
});
