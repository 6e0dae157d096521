/** The lists' `search` is plain text: LIKE's `%`, `_` and `\` in it match only themselves. */
import { document, saveConnection, smtpConnection } from './broadcasts-fixtures';
import { emailApi, EmailApiHarness } from './helpers';

describe('email-api: list search matches its text literally', () => {
  let h: EmailApiHarness;
  beforeAll(async () => {
    h = await emailApi();
    await saveConnection(h.app, h.workspaceId, smtpConnection('edc_search', 2525));
  });
  afterAll(() => h?.close());

  const NAMES = ['50% off', '50x off', 'a_b', 'axb', 'back\\slash', 'backslash'];
  const found = async (path: string, field: string, search: string) =>
    (
      (
        await h
          .as()
          .get(`${path}?limit=100&search=${encodeURIComponent(search)}`)
          .expect(200)
      ).body.data as Array<Record<string, string>>
    )
      .map((row) => row[field])
      .sort();

  it.each([
    ['/v1/tags', 'name', (name: string) => ({ name })],
    ['/v1/custom-fields', 'label', (label: string) => ({ label, type: 'Text' })],
    ['/v1/segments', 'name', (name: string) => ({ name, definition: { match: 'all', groups: [] } })],
    ['/v1/broadcasts', 'subject', (subject: string) => ({ subject, body_document: document() })],
  ])('%s', async (path, field, body) => {
    for (const name of NAMES) await h.as().post(path).send(body(name)).expect(201);
    expect(await found(path, field, '%')).toEqual(['50% off']);
    expect(await found(path, field, '_')).toEqual(['a_b']);
    expect(await found(path, field, '\\')).toEqual(['back\\slash']);
    expect(await found(path, field, '50')).toEqual(['50% off', '50x off']);
  });
});
