/**
 * Subscriber import jobs through the API: a create is checked before anything is queued (a mapping error is a 400
 * naming the mapping), takes its upload (Ready → Queued) and answers 202 Queued; a retry with the same Idempotency-Key
 * replays it; a dry run (our extension) leaves the upload Ready; list, get and the results report (our extension) are
 * the workspace's own. The worker's side is apps/email-jobs-worker/test/subscriber-import.int-spec.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { emailApi, EmailApiHarness } from './helpers';
import { readyUpload } from './import-upload.fixture';

const CSV = 'Email,Full name,Size\na@example.com,A,1\n';

describe('email-api: subscriber import jobs', () => {
  let api: EmailApiHarness;
  let filesDir: string;
  let fieldId: string;

  beforeAll(async () => {
    filesDir = mkdtempSync(path.join(tmpdir(), 'postline-import-jobs-'));
    api = await emailApi({ SUBSCRIBER_JOB_FILES_DIR: filesDir });
    fieldId = (await api.as().post('/v1/custom-fields').send({ label: 'Size', type: 'Number' }).expect(201)).body.data.id;
  }, 60_000);

  afterAll(async () => {
    await api?.close();
    rmSync(filesDir, { recursive: true, force: true });
  });

  const mappings = () => [
    { csv_column: 'Email', field: { type: 'email' } },
    { csv_column: 'Full name', field: { type: 'name' } },
    { csv_column: 'Size', field: { type: 'custom-field', custom_field_id: fieldId } },
  ];

  it('queues a job that takes the upload, and replays it for the same Idempotency-Key', async () => {
    const uploadId = await readyUpload(api, CSV);
    const body = { upload_id: uploadId, mappings: mappings(), new_tag_name: 'Imported' };
    const first = await api.as().post('/v1/jobs/subscriber-imports').set('idempotency-key', `imp-${uploadId}`).send(body).expect(202);
    expect(first.body.data).toEqual({
      self: `/v1/jobs/subscriber-imports/${first.body.data.id}`,
      id: expect.stringMatching(/^imp_/),
      status: 'Queued',
      imported_count: null,
      error_message: null,
      started_at: null,
      completed_at: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const again = await api.as().post('/v1/jobs/subscriber-imports').set('idempotency-key', `imp-${uploadId}`).send(body).expect(202);
    expect(again.body).toEqual(first.body);
    const upload = (await api.as().get(`/v1/jobs/subscriber-import-uploads/${uploadId}`).expect(200)).body.data;
    expect(upload).toMatchObject({ status: 'Queued', import_job_id: first.body.data.id, queued_at: expect.any(String) });
    const other = await api.as().post('/v1/jobs/subscriber-imports').send(body).expect(400);
    expect(other.body.error).toMatchObject({ code: 'import_upload_not_ready', details: { field: 'upload_id' } });

    const list = (await api.as().get('/v1/jobs/subscriber-imports').expect(200)).body;
    expect(list.data.map((job: { id: string }) => job.id)).toEqual([first.body.data.id]);
    expect(Object.keys(list.data[0]).sort()).toEqual(['completed_at', 'created_at', 'id', 'imported_count', 'self', 'started_at', 'status', 'updated_at']);
    expect((await api.as().get(`/v1/jobs/subscriber-imports/${first.body.data.id}`).expect(200)).body.data).toEqual(first.body.data);
    const results = (await api.as().get(`/v1/jobs/subscriber-imports/${first.body.data.id}/results`).expect(200)).body;
    expect(results).toEqual({
      data: expect.objectContaining({ job_id: first.body.data.id, dry_run: false, status: 'Queued', processed_rows: 0, rejected_rows: [] }),
      pagination: { has_more: false, next_cursor: null },
    });
    expect((await api.as().get('/v1/tags').expect(200)).body.data.map((tag: { name: string }) => tag.name)).toContain('Imported');
  });

  it.each([
    ['a column the upload does not have', [{ csv_column: 'email', field: { type: 'email' } }], 'mappings[0].csv_column'],
    [
      'one column twice',
      [
        { csv_column: 'Email', field: { type: 'email' } },
        { csv_column: 'Email', field: { type: 'name' } },
      ],
      'mappings[1].csv_column',
    ],
    [
      'two columns on one field',
      [
        { csv_column: 'Email', field: { type: 'email' } },
        { csv_column: 'Full name', field: { type: 'email' } },
      ],
      'mappings[1].field',
    ],
    ['no email column', [{ csv_column: 'Full name', field: { type: 'name' } }], 'mappings'],
    [
      'a custom field without its id',
      [
        { csv_column: 'Email', field: { type: 'email' } },
        { csv_column: 'Size', field: { type: 'custom-field' } },
      ],
      'mappings[1].field.custom_field_id',
    ],
  ])('refuses a mapping with %s, naming it, and queues nothing', async (_case, badMappings, field) => {
    const uploadId = await readyUpload(api, CSV);
    const { body } = await api.as().post('/v1/jobs/subscriber-imports').send({ upload_id: uploadId, mappings: badMappings }).expect(400);
    expect(body.error).toMatchObject({ code: 'invalid_import_mapping', details: { field } });
    expect((await api.as().get(`/v1/jobs/subscriber-import-uploads/${uploadId}`).expect(200)).body.data.status).toBe('Ready');
  });

  it.each([
    ['the create', '/v1/jobs/subscriber-imports'],
    ['the dry run', '/v1/jobs/subscriber-imports/preview'],
  ])('refuses a mapping without its field on %s as a validation error naming it', async (_case, path) => {
    const uploadId = await readyUpload(api, CSV);
    const mappings = [{ csv_column: 'Email', field: { type: 'email' } }, { csv_column: 'Full name' }];
    const { body } = await api.as().post(path).send({ upload_id: uploadId, mappings }).expect(400);
    expect(body.error).toMatchObject({ code: 'validation_failed', details: { field: 'mappings[1].field' } });
  });

  it("refuses another workspace's custom field, tag or upload", async () => {
    const other = await api.newWorkspace();
    const theirField = (await api.as(other.api_key).post('/v1/custom-fields').send({ label: 'Theirs', type: 'Text' }).expect(201)).body.data.id;
    const uploadId = await readyUpload(api, CSV);
    const withTheirField = [
      { csv_column: 'Email', field: { type: 'email' } },
      { csv_column: 'Size', field: { type: 'custom-field', custom_field_id: theirField } },
    ];
    const field = await api.as().post('/v1/jobs/subscriber-imports').send({ upload_id: uploadId, mappings: withTheirField }).expect(400);
    expect(field.body.error).toMatchObject({ code: 'invalid_import_mapping', details: { field: 'mappings[1].field.custom_field_id' } });
    const theirTag = (await api.as(other.api_key).post('/v1/tags').send({ name: 'Theirs' }).expect(201)).body.data.id;
    const tag = await api
      .as()
      .post('/v1/jobs/subscriber-imports')
      .send({ upload_id: uploadId, mappings: mappings(), existing_tag_ids: [theirTag] })
      .expect(400);
    expect(tag.body.error).toMatchObject({ code: 'unknown_tag', details: { field: 'existing_tag_ids[0]' } });
    const upload = await api.as(other.api_key).post('/v1/jobs/subscriber-imports').send({ upload_id: uploadId, mappings: mappings() }).expect(400);
    expect(upload.body.error).toMatchObject({ details: { field: 'upload_id' } });
    await api.as(other.api_key).get(`/v1/jobs/subscriber-imports/imp_nope`).expect(404);
  });

  it('runs a dry run (our extension) without taking the upload, and keeps it out of the job list', async () => {
    const uploadId = await readyUpload(api, CSV);
    const preview = await api.as().post('/v1/jobs/subscriber-imports/preview').send({ upload_id: uploadId, mappings: mappings() }).expect(202);
    expect(preview.body.data.status).toBe('Queued');
    expect((await api.as().get(`/v1/jobs/subscriber-import-uploads/${uploadId}`).expect(200)).body.data.status).toBe('Ready');
    const results = (await api.as().get(`/v1/jobs/subscriber-imports/${preview.body.data.id}/results`).expect(200)).body.data;
    expect(results.dry_run).toBe(true);
    const listed = (await api.as().get('/v1/jobs/subscriber-imports?limit=100').expect(200)).body.data.map((job: { id: string }) => job.id);
    expect(listed).not.toContain(preview.body.data.id);
  });

  it('needs live_actions:write and subscribers:import to create', async () => {
    const uploadId = await readyUpload(api, CSV);
    await api
      .as(await api.keyWith(['subscribers:import']))
      .post('/v1/jobs/subscriber-imports')
      .send({ upload_id: uploadId, mappings: mappings() })
      .expect(403);
  });
});
