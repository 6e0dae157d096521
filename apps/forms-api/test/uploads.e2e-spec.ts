/**
 * File uploads: a hosted form uploads raw bytes before submitting, the answer refers to the upload by id, and the
 * form's team downloads the file through the API.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { FormsPrisma } from '@forms/data-access';
import { formsApi, FormsApiHarness } from './helpers';

interface Uploaded {
  id: string;
  fileName: string;
  mimeType: string;
  size: number;
  url: string;
}

const MiB = 1024 * 1024;

const fileDraft = (name: string) => ({
  settings: { name },
  steps: [
    {
      id: 'stp_apply',
      title: 'Apply',
      fields: [
        { id: 'fld_email', type: 'email', label: 'Email', required: true },
        { id: 'fld_cv', type: 'file_upload', label: 'CV', maxFiles: 2, maxSizeMb: 1, accept: ['application/pdf', 'image/*'] },
      ],
    },
  ],
});

/** Collects a response body as raw bytes. */
const binary = (res: request.Response, done: (error: Error | null, body: Buffer) => void) => {
  const stream = res as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('end', () => done(null, Buffer.concat(chunks)));
};

/** Every byte value, so a text or encoding mishap on the way in or out shows. */
const pdfBytes = () => Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from(Array.from({ length: 256 }, (_, i) => i)), Buffer.from('\n%%EOF\n')]);

describe('forms-api: file uploads', () => {
  let api: FormsApiHarness;
  let prisma: FormsPrisma;
  let form: { id: string; publicId: string };
  let otherForm: { id: string; publicId: string };
  let plainForm: { id: string; publicId: string };

  const server = () => api.app.getHttpServer();
  const createForm = async (draftSchema: object, publish = true) => {
    const created = (await api.as().post('/api/v1/forms').send({ draftSchema }).expect(201)).body.data;
    if (publish) await api.as().post(`/api/v1/forms/${created.id}/publish`).send({}).expect(200);
    return { id: created.id as string, publicId: created.public_id as string };
  };

  const uploadTo = (publicId: string, data: Buffer, fileName: string | undefined, fileType: string | undefined) => {
    let test = request(server()).post(`/api/public/forms/${publicId}/uploads`).set('content-type', 'application/octet-stream');
    if (fileName !== undefined) test = test.set('x-file-name', encodeURIComponent(fileName));
    if (fileType !== undefined) test = test.set('x-file-type', fileType);
    return test.send(data);
  };
  const upload = async (data: Buffer, fileName: string, fileType: string, publicId = form.publicId): Promise<Uploaded> =>
    (await uploadTo(publicId, data, fileName, fileType).expect(201)).body;
  const submit = (body: object, formId = form.id) => api.as().post(`/api/v1/forms/${formId}/submissions`).send(body);
  const download = (path: string, key?: string) => api.as(key).get(path).buffer(true).parse(binary);
  const urlPath = (url: string) => new URL(url).pathname;
  const uploadDir = mkdtempSync(join(tmpdir(), 'forms-uploads-'));
  /** Every file under the upload directory, partial ones included. */
  const storedFiles = () =>
    readdirSync(uploadDir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name));
  const counts = async () => ({ uploads: await prisma.formUpload.count(), submissions: await prisma.formSubmission.count(), files: storedFiles().length });

  beforeAll(async () => {
    api = await formsApi({ FORMS_PUBLIC_BASE_URL: 'https://forms.example.test', FORMS_UPLOAD_DIR: uploadDir });
    prisma = api.app.get(FormsPrisma);
    form = await createForm(fileDraft('Job application'));
    otherForm = await createForm(fileDraft('Other application'));
    plainForm = await createForm({
      settings: { name: 'No files' },
      steps: [{ id: 'stp_1', title: 'One', fields: [{ id: 'fld_email', type: 'email', label: 'Email' }] }],
    });
  });
  afterAll(async () => {
    await api?.close();
    rmSync(uploadDir, { recursive: true, force: true });
  });

  describe('upload, submit, download', () => {
    it('stores the raw bytes and answers 201 with id, fileName, mimeType, size and an API url', async () => {
      const data = pdfBytes();
      const res = await uploadTo(form.publicId, data, 'Lebenslauf für Jörg (2024).pdf', 'application/pdf').expect(201);
      expect(Object.keys(res.body).sort()).toEqual(['fileName', 'id', 'mimeType', 'size', 'url']);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^upl_[0-9A-HJKMNP-TV-Z]{26}$/),
        fileName: 'Lebenslauf für Jörg (2024).pdf',
        mimeType: 'application/pdf',
        size: data.length,
        url: `https://forms.example.test/api/v1/forms/${form.id}/uploads/${res.body.id}`,
      });
    });

    // Files are streamed to storage (a directory by default), never held whole in memory or kept in PostgreSQL.
    it('keeps the bytes in the upload directory and only the facts about them in the database', async () => {
      const data = pdfBytes();
      const before = storedFiles().length;
      const file = await upload(data, 'disk.pdf', 'application/pdf');
      const row = await prisma.formUpload.findUniqueOrThrow({ where: { id: file.id } });
      expect(row.data).toBeNull();
      expect(row).toMatchObject({ size: data.length, sha256: createHash('sha256').update(data).digest('hex') });
      expect(storedFiles()).toHaveLength(before + 1);
      const onDisk = storedFiles().find((path) => path.endsWith(file.id));
      expect(Buffer.compare(readFileSync(onDisk as string), data)).toBe(0);
    });

    it('a submission refers to the upload; the team downloads the same bytes with the key', async () => {
      const data = pdfBytes();
      const name = 'Lebenslauf für Jörg; "final".pdf';
      const file = await upload(data, name, 'application/pdf');
      const photo = await upload(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 3]), 'me.png', 'image/png');
      const attachedAt = async () =>
        (await prisma.formUpload.findMany({ where: { id: { in: [file.id, photo.id] } }, select: { attached_at: true } })).map((row) => row.attached_at);
      expect(await attachedAt()).toEqual([null, null]);
      const res = await submit({ values: { fld_email: 'joerg@example.com', fld_cv: [file, photo] } }).expect(201);
      // Attached uploads are kept past the clean-up's retention period.
      expect(await attachedAt()).toEqual([expect.any(Date), expect.any(Date)]);

      const stored = await api.as().get(`/api/v1/forms/${form.id}/submissions/${res.body.submission.id}`).expect(200);
      expect(stored.body.data.answersByFieldId.fld_cv).toEqual([file, photo]);
      expect(stored.body.data.answers.find((a: { fieldId: string }) => a.fieldId === 'fld_cv')).toMatchObject({ type: 'file_upload', text: `${name}, me.png` });

      const got = await download(urlPath(file.url)).expect(200);
      expect(Buffer.compare(got.body as Buffer, data)).toBe(0);
      expect(got.headers['content-type']).toBe('application/pdf');
      expect(got.headers['content-disposition']).toBe(`attachment; filename*=UTF-8''${encodeURIComponent(name)}`);
      expect(got.headers['x-content-type-options']).toBe('nosniff');
      const png = await download(urlPath(photo.url)).expect(200);
      expect([...(png.body as Buffer)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 3]);
      expect(png.headers['content-type']).toBe('image/png');
    });

    it('the hosted form submits the same way, and a single file object counts as a one-file answer', async () => {
      const file = await upload(pdfBytes(), 'cv.pdf', 'application/pdf');
      const res = await request(server())
        .post(`/api/public/forms/${form.publicId}/submissions`)
        .send({ fld_email: 'pub@example.com', fld_cv: file })
        .expect(201);
      const stored = await api.as().get(`/api/v1/forms/${form.id}/submissions/${res.body.submission.id}`).expect(200);
      expect(stored.body.data.answersByFieldId.fld_cv).toEqual([file]);
      expect(stored.body.data.meta.source).toBe('hosted_form');
    });

    it('an unknown x-file-type is stored as application/octet-stream; a name that is not URI-encoded is kept as sent', async () => {
      const odd = await upload(Buffer.from('x'), 'a.bin', 'not a mime type');
      expect(odd.mimeType).toBe('application/octet-stream');
      const raw = await request(server())
        .post(`/api/public/forms/${form.publicId}/uploads`)
        .set('content-type', 'application/octet-stream')
        .set('x-file-name', 'report%ZZ.pdf')
        .set('x-file-type', 'application/pdf')
        .send(Buffer.from('%PDF'))
        .expect(201);
      expect(raw.body.fileName).toBe('report%ZZ.pdf');
    });

    it('an x-file-type longer than a media type can be (127 + 127 characters) is stored as plain bytes', async () => {
      const long = await upload(Buffer.from('x'), 'a.bin', `a/${'b'.repeat(1000)}`);
      expect(long.mimeType).toBe('application/octet-stream');
      expect((await upload(Buffer.from('x'), 'b.bin', 'application/vnd.oasis.opendocument.text')).mimeType).toBe('application/vnd.oasis.opendocument.text');
    });
  });

  describe('answers that do not fit the field', () => {
    it('an upload of ANOTHER form is 400 unknown_upload naming the answer item, and nothing is stored', async () => {
      const mine = await upload(pdfBytes(), 'mine.pdf', 'application/pdf');
      const foreign = await upload(pdfBytes(), 'foreign.pdf', 'application/pdf', otherForm.publicId);
      const before = await counts();
      const wrapped = await submit({ values: { fld_email: 'a@example.com', fld_cv: [foreign] } }).expect(400);
      expect(wrapped.body.error).toMatchObject({ type: 'invalid_request', code: 'unknown_upload', details: { field: 'values.fld_cv[0].id' } });
      const second = await submit({ values: { fld_email: 'a@example.com', fld_cv: [mine, foreign] } }).expect(400);
      expect(second.body.error).toMatchObject({ code: 'unknown_upload', details: { field: 'values.fld_cv[1].id' } });
      const plain = await submit({ fld_email: 'a@example.com', fld_cv: [{ ...mine, id: 'upl_01ARZ3NDEKTSV4RRFFQ69G5FAV' }] }).expect(400);
      expect(plain.body.error).toMatchObject({ code: 'unknown_upload', details: { field: 'fld_cv[0].id' } });
      // The other form's team cannot reach this form's upload through their own form either.
      await download(`/api/v1/forms/${otherForm.id}/uploads/${mine.id}`).expect(404);
      expect(await counts()).toEqual(before);
    });

    it('a file over maxSizeMb is accepted as an upload but refused at submit', async () => {
      const big = await upload(Buffer.alloc(MiB + 1, 7), 'big.pdf', 'application/pdf');
      expect(big.size).toBe(MiB + 1);
      const exact = await upload(Buffer.alloc(MiB, 7), 'exact.pdf', 'application/pdf');
      const before = await counts();
      const res = await submit({ values: { fld_email: 'a@example.com', fld_cv: [big] } }).expect(400);
      expect(res.body.error).toMatchObject({ type: 'invalid_request', code: 'file_too_large', details: { field: 'values.fld_cv' } });
      expect(await counts()).toEqual(before);
      await submit({ values: { fld_email: 'a@example.com', fld_cv: [exact] } }).expect(201);
    });

    it('a type the field does not accept is refused at submit', async () => {
      const text = await upload(Buffer.from('plain words'), 'notes.txt', 'text/plain');
      const before = await counts();
      const res = await submit({ values: { fld_email: 'a@example.com', fld_cv: [text] } }).expect(400);
      expect(res.body.error).toMatchObject({ code: 'file_type_not_accepted', details: { field: 'values.fld_cv' } });
      expect(await counts()).toEqual(before);
    });

    it('more files than maxFiles is refused', async () => {
      const files = [
        await upload(pdfBytes(), '1.pdf', 'application/pdf'),
        await upload(pdfBytes(), '2.pdf', 'application/pdf'),
        await upload(pdfBytes(), '3.pdf', 'application/pdf'),
      ];
      const res = await submit({ values: { fld_email: 'a@example.com', fld_cv: files } }).expect(400);
      expect(res.body.error).toMatchObject({ code: 'too_many_files', details: { field: 'values.fld_cv' } });
    });

    // The size and type limits must hold for the file that was uploaded, not for what the answer claims about it.
    it('an answer cannot shrink the size of an upload past maxSizeMb', async () => {
      const big = await upload(Buffer.alloc(2 * MiB, 1), 'big.pdf', 'application/pdf');
      const before = await counts();
      const res = await submit({ values: { fld_email: 'liar@example.com', fld_cv: [{ ...big, size: 10 }] } });
      if (res.status === 201) {
        // Accepting is only acceptable if the stored answer tells the truth about the file.
        const stored = await api.as().get(`/api/v1/forms/${form.id}/submissions/${res.body.submission.id}`).expect(200);
        expect(stored.body.data.answersByFieldId.fld_cv).toEqual([big]);
      } else {
        expect(res.status).toBe(400);
        expect(res.body.error).toMatchObject({ type: 'invalid_request', details: { field: expect.stringMatching(/^values\.fld_cv/) } });
        expect(await counts()).toEqual(before);
      }
    });

    it('an answer cannot relabel an upload with a type the field accepts', async () => {
      const script = await upload(Buffer.from('#!/bin/sh\necho pwned\n'), 'run.sh', 'text/x-shellscript');
      const before = await counts();
      const res = await submit({ values: { fld_email: 'liar@example.com', fld_cv: [{ ...script, mimeType: 'application/pdf', fileName: 'run.pdf' }] } });
      if (res.status === 201) {
        const stored = await api.as().get(`/api/v1/forms/${form.id}/submissions/${res.body.submission.id}`).expect(200);
        expect(stored.body.data.answersByFieldId.fld_cv).toEqual([script]);
      } else {
        expect(res.status).toBe(400);
        expect(res.body.error).toMatchObject({ type: 'invalid_request', details: { field: expect.stringMatching(/^values\.fld_cv/) } });
        expect(await counts()).toEqual(before);
      }
    });

    it("an answer cannot point the stored file's url somewhere else", async () => {
      const file = await upload(pdfBytes(), 'cv.pdf', 'application/pdf');
      const res = await submit({ values: { fld_email: 'liar@example.com', fld_cv: [{ ...file, url: 'https://evil.example.test/cv.pdf' }] } });
      if (res.status === 201) {
        const stored = await api.as().get(`/api/v1/forms/${form.id}/submissions/${res.body.submission.id}`).expect(200);
        expect(stored.body.data.answersByFieldId.fld_cv).toEqual([file]);
      } else {
        expect(res.status).toBe(400);
      }
    });
  });

  describe('refused uploads write nothing', () => {
    let before: Awaited<ReturnType<typeof counts>>;
    beforeEach(async () => {
      before = await counts();
    });
    afterEach(async () => {
      expect(await counts()).toEqual(before);
    });

    it('raw bytes sent to any other route: 415 unsupported_media_type', async () => {
      for (const path of [`/api/public/forms/${form.publicId}/submissions`, '/api/v1/forms']) {
        const res = await request(server())
          .post(path)
          .set('authorization', `Bearer ${api.main.key}`)
          .set('content-type', 'application/octet-stream')
          .send(pdfBytes());
        expect({ status: res.status, error: res.body.error }).toEqual({
          status: 415,
          error: expect.objectContaining({ type: 'invalid_request', code: 'unsupported_media_type' }),
        });
      }
    });

    it('a JSON or form-encoded body to the upload route: 415 unsupported_media_type', async () => {
      for (const [contentType, body] of [
        ['application/json', '{"file":"x"}'],
        ['application/x-www-form-urlencoded', 'file=x'],
      ]) {
        const res = await request(server())
          .post(`/api/public/forms/${form.publicId}/uploads`)
          .set('content-type', contentType)
          .set('x-file-name', 'cv.pdf')
          .set('x-file-type', 'application/pdf')
          .send(body);
        expect({ contentType, status: res.status, error: res.body.error }).toEqual({
          contentType,
          status: 415,
          error: expect.objectContaining({
            type: 'invalid_request',
            code: 'unsupported_media_type',
            message: expect.stringContaining('application/octet-stream'),
          }),
        });
      }
    });

    it('a form without file questions: 400 no_file_field', async () => {
      const res = await uploadTo(plainForm.publicId, pdfBytes(), 'cv.pdf', 'application/pdf').expect(400);
      expect(res.body.error).toMatchObject({ type: 'invalid_request', code: 'no_file_field', message: expect.any(String) });
    });

    it('an unknown public id: 404', async () => {
      const res = await uploadTo('pub_doesnotexist', pdfBytes(), 'cv.pdf', 'application/pdf').expect(404);
      expect(res.body.error).toMatchObject({ type: 'not_found', code: 'form_not_found' });
    });

    it('an empty body: 400', async () => {
      const res = await uploadTo(form.publicId, Buffer.alloc(0), 'cv.pdf', 'application/pdf').expect(400);
      expect(res.body.error).toMatchObject({ type: 'invalid_request', code: 'empty_file' });
    });

    it('no file name: 400 naming x-file-name', async () => {
      const res = await uploadTo(form.publicId, pdfBytes(), undefined, 'application/pdf').expect(400);
      expect(res.body.error).toMatchObject({ type: 'invalid_request', details: { field: 'x-file-name' } });
    });

    it('a file name with a text-direction override (invoice\u202Efdp.exe shows as invoiceexe.pdf): 400 invalid_file_name', async () => {
      for (const name of ['invoice\u202Efdp.exe', 'a\u2067b.pdf', 'a\u200fb.pdf']) {
        const res = await uploadTo(form.publicId, pdfBytes(), name, 'application/pdf').expect(400);
        expect(res.body.error).toMatchObject({ code: 'invalid_file_name', details: { field: 'x-file-name' } });
      }
    });

    it('a file name with a NUL character (x-file-name: a%00b.pdf): 400, not a 500', async () => {
      const res = await request(server())
        .post(`/api/public/forms/${form.publicId}/uploads`)
        .set('content-type', 'application/octet-stream')
        .set('x-file-name', 'a%00b.pdf')
        .set('x-file-type', 'application/pdf')
        .send(pdfBytes());
      expect({ status: res.status, error: res.body.error }).toEqual({
        status: 400,
        error: expect.objectContaining({ type: 'invalid_request', code: expect.any(String), message: expect.any(String) }),
      });
    });

    it('a form that is not published, or closed: 403', async () => {
      const draftOnly = await createForm(fileDraft('Draft only'), false);
      before = await counts();
      const unpublished = await uploadTo(draftOnly.publicId, pdfBytes(), 'cv.pdf', 'application/pdf').expect(403);
      expect(unpublished.body.error).toMatchObject({ type: 'permission_error' });
      const closing = await createForm(fileDraft('Closing'));
      await api.as().post(`/api/v1/forms/${closing.id}/close`).send({}).expect(200);
      before = await counts();
      const closed = await uploadTo(closing.publicId, pdfBytes(), 'cv.pdf', 'application/pdf').expect(403);
      expect(closed.body.error).toMatchObject({ type: 'permission_error' });
    });

    it('a body over 25 MB: 413 payload_too_large', async () => {
      const res = await uploadTo(form.publicId, Buffer.alloc(25 * MiB + 1, 1), 'huge.pdf', 'application/pdf');
      expect(res.status).toBe(413);
      expect(res.body.error).toMatchObject({ type: 'invalid_request', code: 'payload_too_large' });
    });

    // Without a Content-Length the size is only known while the bytes arrive: the cap holds while streaming.
    it('a body over 25 MB sent in chunks (no Content-Length): 413 payload_too_large, no file and no row left', async () => {
      const http = server();
      if (!http.listening) await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
      const { port } = http.address() as AddressInfo;
      const res = await new Promise<{ status: number; body: string }>((resolve) => {
        const req = httpRequest(
          {
            port,
            host: '127.0.0.1',
            method: 'POST',
            path: `/api/public/forms/${form.publicId}/uploads`,
            headers: {
              connection: 'close',
              'content-type': 'application/octet-stream',
              'transfer-encoding': 'chunked',
              'x-file-name': 'huge.pdf',
              'x-file-type': 'application/pdf',
            },
          },
          (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () => {
              req.destroy();
              resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() });
            });
          },
        );
        // The server may answer and close before every chunk is written: the answer is what counts.
        req.on('error', () => undefined);
        const chunk = Buffer.alloc(MiB, 1);
        let sent = 0;
        const writeMore = () => {
          while (sent < 26) {
            sent += 1;
            if (!req.write(chunk)) return void req.once('drain', writeMore);
          }
          req.end();
        };
        writeMore();
      });
      expect(res.status).toBe(413);
      expect(JSON.parse(res.body).error).toMatchObject({ type: 'invalid_request', code: 'payload_too_large' });
    });

    it('exactly 25 MB is still accepted', async () => {
      const res = await uploadTo(form.publicId, Buffer.alloc(25 * MiB, 1), 'max.pdf', 'application/pdf').expect(201);
      expect(res.body.size).toBe(25 * MiB);
      before.uploads += 1;
      before.files += 1;
    });
  });

  describe('downloads', () => {
    let file: Uploaded;
    beforeAll(async () => {
      file = await upload(pdfBytes(), 'private.pdf', 'application/pdf');
    });

    it('need submissions:read', async () => {
      const noRead = await api.keyWith(api.main.ownerId, ['forms:read', 'submissions:create']);
      const res = await download(urlPath(file.url), noRead).expect(403);
      expect(JSON.parse((res.body as Buffer).toString()).error).toMatchObject({ code: 'insufficient_scope', missing_scopes: ['submissions:read'] });
      const readOnly = await api.keyWith(api.main.ownerId, ['submissions:read']);
      await download(urlPath(file.url), readOnly).expect(200);
    });

    it('are a 404 for a stranger, and 401 without a key', async () => {
      const stranger = await api.newAccount('stranger@example.com');
      const res = await download(urlPath(file.url), stranger.key).expect(404);
      expect(JSON.parse((res.body as Buffer).toString()).error).toMatchObject({ type: 'not_found', code: 'form_not_found' });
      await download(urlPath(file.url), '').expect(401);
    });

    it('are a 404 for an unknown upload id', async () => {
      const res = await download(`/api/v1/forms/${form.id}/uploads/upl_01ARZ3NDEKTSV4RRFFQ69G5FAV`).expect(404);
      expect(JSON.parse((res.body as Buffer).toString()).error).toMatchObject({ type: 'not_found', code: 'upload_not_found' });
    });

    it('are never public: the hosted side has no download route', async () => {
      await request(server()).get(`/api/public/forms/${form.publicId}/uploads/${file.id}`).expect(404);
    });
  });
});
