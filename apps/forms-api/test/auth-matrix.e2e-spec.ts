/**
 * The authentication and authorization matrix of every /api/v1 operation: no key, a garbage key, a revoked key,
 * a key missing exactly the operation's scope, a viewer of the workspace, and a stranger from another account.
 */
import request from 'supertest';
import { FORMS_SCOPES } from '@forms/accounts';
import { FormsPrisma } from '@forms/data-access';
import { Account, formsApi, FormsApiHarness } from './helpers';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

interface Fixture {
  formId: string;
  publicId: string;
  submissionId: string;
  uploadId: string;
}

interface Operation {
  id: string;
  method: Method;
  path: (f: Fixture) => string;
  /** The one scope the operation needs; null for GET /me. */
  scope: string | null;
  /** A read is allowed for a workspace viewer; a write needs the owner or editor role. */
  kind: 'read' | 'write';
  /** Whether the operation names a form (a stranger gets 404 form_not_found). */
  formScoped: boolean;
  body?: () => object;
}

/** Collects a response body as raw bytes. */
const binary = (res: request.Response, done: (error: Error | null, body: Buffer) => void) => {
  const stream = res as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('end', () => done(null, Buffer.concat(chunks)));
};

const TABLES = ['forms', 'form_versions', 'form_submissions', 'form_uploads'];

const fixtureDraft = () => ({
  settings: { name: 'Auth matrix' },
  steps: [
    {
      id: 'stp_a',
      title: 'A',
      fields: [
        { id: 'fld_name', type: 'text', label: 'Name' },
        { id: 'fld_note', type: 'text', label: 'Note' },
        { id: 'fld_file', type: 'file_upload', label: 'File', accept: ['text/plain'] },
      ],
    },
    { id: 'stp_b', title: 'B', fields: [{ id: 'fld_email', type: 'email', label: 'Email', required: true }] },
  ],
});

const f = (suffix: string) => (x: Fixture) => `/api/v1/forms/${x.formId}${suffix}`;

/** Every /api/v1 operation with the scope its controller declares (@RequireScopes). */
const OPERATIONS = (workspaceId: string): Operation[] => [
  { id: 'getMe', method: 'get', path: () => '/api/v1/me', scope: null, kind: 'read', formScoped: false },
  {
    id: 'createForm',
    method: 'post',
    path: () => '/api/v1/forms',
    scope: 'forms:create',
    kind: 'write',
    formScoped: false,
    body: () => ({ title: 'Made here', workspaceId }),
  },
  { id: 'listForms', method: 'get', path: () => `/api/v1/forms?workspaceId=${workspaceId}`, scope: 'forms:read', kind: 'read', formScoped: false },
  { id: 'getForm', method: 'get', path: f(''), scope: 'forms:read', kind: 'read', formScoped: true },
  { id: 'updateForm', method: 'patch', path: f(''), scope: 'forms:update', kind: 'write', formScoped: true, body: () => ({ title: 'Renamed' }) },
  {
    id: 'replaceDraft',
    method: 'put',
    path: f('/draft'),
    scope: 'forms:update',
    kind: 'write',
    formScoped: true,
    body: () => ({ draftSchema: fixtureDraft() }),
  },
  { id: 'deleteForm', method: 'delete', path: f(''), scope: 'forms:delete', kind: 'write', formScoped: true },
  { id: 'publishForm', method: 'post', path: f('/publish'), scope: 'forms:publish', kind: 'write', formScoped: true, body: () => ({}) },
  { id: 'closeForm', method: 'post', path: f('/close'), scope: 'forms:publish', kind: 'write', formScoped: true, body: () => ({}) },
  { id: 'reopenForm', method: 'post', path: f('/reopen'), scope: 'forms:publish', kind: 'write', formScoped: true, body: () => ({}) },
  { id: 'addStep', method: 'post', path: f('/steps'), scope: 'forms:steps:write', kind: 'write', formScoped: true, body: () => ({ title: 'Added' }) },
  {
    id: 'reorderSteps',
    method: 'post',
    path: f('/steps/reorder'),
    scope: 'forms:steps:write',
    kind: 'write',
    formScoped: true,
    body: () => ({ step_ids: ['stp_b', 'stp_a'] }),
  },
  {
    id: 'updateStep',
    method: 'patch',
    path: f('/steps/stp_a'),
    scope: 'forms:steps:write',
    kind: 'write',
    formScoped: true,
    body: () => ({ title: 'Retitled' }),
  },
  { id: 'deleteStep', method: 'delete', path: f('/steps/stp_b'), scope: 'forms:steps:write', kind: 'write', formScoped: true },
  { id: 'moveStep', method: 'post', path: f('/steps/stp_b/move'), scope: 'forms:steps:write', kind: 'write', formScoped: true, body: () => ({ position: 0 }) },
  {
    id: 'addField',
    method: 'post',
    path: f('/steps/stp_a/fields'),
    scope: 'forms:fields:write',
    kind: 'write',
    formScoped: true,
    body: () => ({ type: 'text', label: 'Extra' }),
  },
  {
    id: 'reorderFields',
    method: 'post',
    path: f('/steps/stp_a/fields/reorder'),
    scope: 'forms:fields:write',
    kind: 'write',
    formScoped: true,
    body: () => ({ field_ids: ['fld_file', 'fld_note', 'fld_name'] }),
  },
  {
    id: 'updateStepLogic',
    method: 'put',
    path: f('/steps/stp_a/logic'),
    scope: 'forms:logic:write',
    kind: 'write',
    formScoped: true,
    body: () => ({ rules: [], fallbackTarget: 'end' }),
  },
  {
    id: 'updateField',
    method: 'patch',
    path: f('/fields/fld_name'),
    scope: 'forms:fields:write',
    kind: 'write',
    formScoped: true,
    body: () => ({ label: 'Full name' }),
  },
  { id: 'deleteField', method: 'delete', path: f('/fields/fld_note'), scope: 'forms:fields:write', kind: 'write', formScoped: true },
  {
    id: 'moveField',
    method: 'post',
    path: f('/fields/fld_name/move'),
    scope: 'forms:fields:write',
    kind: 'write',
    formScoped: true,
    body: () => ({ position: 0, stepId: 'stp_b' }),
  },
  {
    id: 'patchDesign',
    method: 'patch',
    path: f('/design'),
    scope: 'forms:design:write',
    kind: 'write',
    formScoped: true,
    body: () => ({ theme: { primaryColor: '#123456' } }),
  },
  { id: 'listSubmissions', method: 'get', path: f('/submissions'), scope: 'submissions:read', kind: 'read', formScoped: true },
  {
    id: 'getSubmission',
    method: 'get',
    path: (x) => `/api/v1/forms/${x.formId}/submissions/${x.submissionId}`,
    scope: 'submissions:read',
    kind: 'read',
    formScoped: true,
  },
  {
    id: 'createSubmission',
    method: 'post',
    path: f('/submissions'),
    scope: 'submissions:create',
    kind: 'write',
    formScoped: true,
    body: () => ({ fld_email: 'matrix@example.com' }),
  },
  {
    id: 'downloadUpload',
    method: 'get',
    path: (x) => `/api/v1/forms/${x.formId}/uploads/${x.uploadId}`,
    scope: 'submissions:read',
    kind: 'read',
    formScoped: true,
  },
];

describe('forms-api: authentication and authorization of every operation', () => {
  let api: FormsApiHarness;
  let prisma: FormsPrisma;
  let fixture: Fixture;
  let viewer: Account;
  let editor: Account;
  let stranger: Account;
  let revokedKey: string;
  const withoutScope = new Map<string, string>();

  // Jest names the tests before beforeAll boots the app, so test names come from the table built without the
  // workspace id, and each test resolves its operation with the real one.
  const operationIds = OPERATIONS('').map((op) => op.id);
  const op = (id: string) => OPERATIONS(api.main.workspaceId).find((o) => o.id === id)!;

  /** A published form with one submission and one upload, owned by the main account. */
  const newFixture = async (): Promise<Fixture> => {
    const created = (await api.as().post('/api/v1/forms').send({ draftSchema: fixtureDraft() }).expect(201)).body.data;
    await api.as().post(`/api/v1/forms/${created.id}/publish`).send({}).expect(200);
    const server = api.app.getHttpServer();
    const upload = await request(server)
      .post(`/api/public/forms/${created.public_id}/uploads`)
      .set('content-type', 'application/octet-stream')
      .set('x-file-name', 'matrix.txt')
      .set('x-file-type', 'text/plain')
      .send(Buffer.from('matrix file'))
      .expect(201);
    const submitted = await api
      .as()
      .post(`/api/v1/forms/${created.id}/submissions`)
      .send({ fld_email: 'first@example.com', fld_file: [upload.body] })
      .expect(201);
    return { formId: created.id, publicId: created.public_id, submissionId: submitted.body.submission.id, uploadId: upload.body.id };
  };

  const call = (key: string | undefined, operation: Operation, x: Fixture) => {
    const test = api.as(key)[operation.method](operation.path(x));
    return operation.body ? test.send(operation.body()) : test;
  };

  const snapshot = async () => {
    const parts = await Promise.all(
      TABLES.map((table) =>
        prisma.$queryRawUnsafe<Array<{ digest: string | null }>>(`SELECT md5(string_agg(t::text, '|' ORDER BY t::text)) AS digest FROM ${table} t`),
      ),
    );
    return parts.map(([row]) => row.digest).join(':');
  };

  beforeAll(async () => {
    api = await formsApi();
    prisma = api.app.get(FormsPrisma);
    fixture = await newFixture();
    viewer = await api.newAccount('viewer@example.com');
    await api.accounts.setMembership(api.main.workspaceId, viewer.ownerId, 'viewer');
    editor = await api.newAccount('editor@example.com');
    await api.accounts.setMembership(api.main.workspaceId, editor.ownerId, 'editor');
    stranger = await api.newAccount('stranger@example.com');
    for (const scope of FORMS_SCOPES)
      withoutScope.set(
        scope,
        await api.keyWith(
          api.main.ownerId,
          FORMS_SCOPES.filter((s) => s !== scope),
        ),
      );
    const revoked = await api.accounts.createApiKey(api.main.ownerId, { scopes: [...FORMS_SCOPES] });
    await api.as(revoked.api_key).get('/api/v1/me').expect(200);
    await api.accounts.revokeApiKey(revoked.id);
    revokedKey = revoked.api_key;
  });
  afterAll(() => api?.close());

  it('the table covers every scope of the service', () => {
    const scopes = new Set(
      OPERATIONS('')
        .map((o) => o.scope)
        .filter((s) => s !== null),
    );
    expect([...scopes].sort()).toEqual([...FORMS_SCOPES].sort());
  });

  describe('without a usable key every operation is a 401 and writes nothing', () => {
    const expect401 = async (operationId: string, send: (o: Operation) => request.Test, code: string) => {
      const before = await snapshot();
      const res = await send(op(operationId));
      expect({ operationId, status: res.status }).toEqual({ operationId, status: 401 });
      expect(res.body.error).toMatchObject({ type: 'authentication_error', code, message: expect.any(String) });
      expect(await snapshot()).toBe(before);
    };

    it.each(operationIds)('%s: no Authorization header → missing_credential', (id) => expect401(id, (o) => call('', o, fixture), 'missing_credential'));

    it.each(operationIds)('%s: a garbage key → invalid_credential', (id) =>
      expect401(id, (o) => call('fsk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', o, fixture), 'invalid_credential'),
    );

    it.each(operationIds)('%s: a non-Bearer Authorization header → invalid_credential', (id) =>
      expect401(
        id,
        (o) => {
          const test = request(api.app.getHttpServer())
            [o.method](o.path(fixture))
            .set('authorization', `Basic ${Buffer.from('user:pass').toString('base64')}`);
          return o.body ? test.send(o.body()) : test;
        },
        'invalid_credential',
      ),
    );

    it.each(operationIds)('%s: a revoked key → credential_revoked', (id) => expect401(id, (o) => call(revokedKey, o, fixture), 'credential_revoked'));
  });

  describe('a key missing exactly the required scope', () => {
    it.each(operationIds.filter((id) => OPERATIONS('').find((o) => o.id === id)!.scope))('%s: 403 insufficient_scope naming only that scope', async (id) => {
      const operation = op(id);
      const before = await snapshot();
      const res = await call(withoutScope.get(operation.scope!), operation, fixture);
      expect({ id, status: res.status }).toEqual({ id, status: 403 });
      expect(res.body.error).toMatchObject({
        type: 'permission_error',
        code: 'insufficient_scope',
        missing_scopes: [operation.scope],
        required_scopes: [operation.scope],
      });
      expect(await snapshot()).toBe(before);
    });

    it('GET /api/v1/me needs no scope at all', async () => {
      const key = await api.keyWith(api.main.ownerId, ['submissions:read']);
      const res = await api.as(key).get('/api/v1/me').expect(200);
      expect(res.body.api_key.scopes).toEqual(['submissions:read']);
    });
  });

  describe('a viewer of the workspace holding every scope', () => {
    const reads = operationIds.filter((id) => OPERATIONS('').find((o) => o.id === id)!.kind === 'read');
    const writes = operationIds.filter((id) => OPERATIONS('').find((o) => o.id === id)!.kind === 'write');

    it.each(reads)('%s: allowed', async (id) => {
      const res = await call(viewer.key, op(id), fixture);
      expect({ id, status: res.status }).toEqual({ id, status: 200 });
    });

    it('reads the same data the owner reads', async () => {
      for (const path of [
        `/api/v1/forms/${fixture.formId}`,
        `/api/v1/forms/${fixture.formId}/submissions`,
        `/api/v1/forms/${fixture.formId}/submissions/${fixture.submissionId}`,
      ]) {
        const asViewer = await api.as(viewer.key).get(path).expect(200);
        const asOwner = await api.as().get(path).expect(200);
        expect(asViewer.body).toEqual(asOwner.body);
      }
      const listed = await api.as(viewer.key).get(`/api/v1/forms?workspaceId=${api.main.workspaceId}&limit=100`).expect(200);
      expect(listed.body.data.map((form: { id: string }) => form.id)).toContain(fixture.formId);
      const file = await api.as(viewer.key).get(`/api/v1/forms/${fixture.formId}/uploads/${fixture.uploadId}`).buffer(true).parse(binary).expect(200);
      expect((file.body as Buffer).toString()).toBe('matrix file');
    });

    it.each(writes)('%s: 403 insufficient_role, nothing written', async (id) => {
      const before = await snapshot();
      const res = await call(viewer.key, op(id), fixture);
      expect({ id, status: res.status }).toEqual({ id, status: 403 });
      expect(res.body.error).toMatchObject({ type: 'permission_error', code: 'insufficient_role', role: 'viewer', required_roles: ['owner', 'editor'] });
      expect(await snapshot()).toBe(before);
    });
  });

  describe('a stranger (another account, every scope)', () => {
    const formScoped = operationIds.filter((id) => OPERATIONS('').find((o) => o.id === id)!.formScoped);

    it.each(formScoped)('%s: 404 form_not_found, nothing written', async (id) => {
      const before = await snapshot();
      const res = await call(stranger.key, op(id), fixture);
      expect({ id, status: res.status }).toEqual({ id, status: 404 });
      expect(res.body.error).toMatchObject({ type: 'not_found', code: 'form_not_found' });
      expect(await snapshot()).toBe(before);
    });

    it.each(['createForm', 'listForms'])('%s in the foreign workspace: 404 workspace_not_found', async (id) => {
      const before = await snapshot();
      const res = await call(stranger.key, op(id), fixture);
      expect({ id, status: res.status }).toEqual({ id, status: 404 });
      expect(res.body.error).toMatchObject({ type: 'not_found', code: 'workspace_not_found' });
      expect(await snapshot()).toBe(before);
    });

    it('sees none of the workspace forms in its own list', async () => {
      const res = await api.as(stranger.key).get('/api/v1/forms?limit=100').expect(200);
      expect(res.body.data.map((form: { id: string }) => form.id)).not.toContain(fixture.formId);
    });
  });

  describe('the same requests succeed for the owner and an editor (so the refusals above are about access)', () => {
    it.each(operationIds)('%s', async (id) => {
      for (const account of [api.main, editor]) {
        const res = await call(account.key, op(id), await newFixture());
        expect({ id, account: account.ownerId, status: res.status, error: res.body?.error }).toEqual({
          id,
          account: account.ownerId,
          status: expect.any(Number),
          error: undefined,
        });
        expect({ id, ok: res.status >= 200 && res.status < 300 }).toEqual({ id, ok: true });
      }
    });
  });
});
