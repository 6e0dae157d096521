/** The contract test compares a document built without the database; this holds that it is the one the app serves. */
import { generateOwnDocument } from './openapi-contract/documents';
import { emailApi, EmailApiHarness } from './helpers';

describe('email-api: the served OpenAPI document', () => {
  let h: EmailApiHarness;
  beforeAll(async () => {
    h = await emailApi();
  });
  afterAll(() => h?.close());

  it('has the paths and components of the document the contract test compares', async () => {
    const served = (await h.as('').get('/v1/openapi.json').expect(200)).body;
    const built = await generateOwnDocument();
    expect({ paths: served.paths, components: served.components }).toEqual(JSON.parse(JSON.stringify({ paths: built.paths, components: built.components })));
  });
});
