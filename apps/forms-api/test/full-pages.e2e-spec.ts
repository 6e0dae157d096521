/**
 * The forms lists have no cursor (`next_cursor` is always null): filled with exactly ROWS rows, a `limit` of
 * ROWS - 1, ROWS and ROWS + 1 returns exactly min(limit, ROWS) rows and a null cursor.
 */
import { formsApi, FormsApiHarness, twoStepDraft } from './helpers';

const ROWS = 3;

describe('forms-api: exactly full pages of every list', () => {
  let api: FormsApiHarness;
  let formId: string;
  beforeAll(async () => {
    api = await formsApi();
    for (let i = 0; i < ROWS; i++) {
      formId = (
        await api
          .as()
          .post('/api/v1/forms')
          .send({ draftSchema: twoStepDraft(`Page ${i}`) })
          .expect(201)
      ).body.data.id;
    }
    await api.as().post(`/api/v1/forms/${formId}/publish`).send({}).expect(200);
    for (let i = 0; i < ROWS; i++) {
      await api
        .as()
        .post(`/api/v1/forms/${formId}/submissions`)
        .send({ fld_name: `Person ${i}`, fld_email: `person${i}@example.com` })
        .expect(201);
    }
  });
  afterAll(() => api?.close());

  it.each([
    ['listForms', () => '/api/v1/forms'],
    ['listSubmissions', () => `/api/v1/forms/${formId}/submissions`],
  ])('%s', async (_name, path) => {
    for (const limit of [ROWS - 1, ROWS, ROWS + 1]) {
      const page = (await api.as().get(`${path()}?limit=${limit}`).expect(200)).body;
      expect({ limit, rows: page.data.length, next_cursor: page.next_cursor }).toEqual({ limit, rows: Math.min(limit, ROWS), next_cursor: null });
    }
  });
});
