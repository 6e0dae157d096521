/**
 * Subscriber import uploads: the two API operations and the one-time browser page behind `upload_url`, over HTTP
 * (CSRF, single use, refused files freeing the link, tenancy) and in headless Chromium (choose a file, see the
 * progress and the detected columns; a wrong type refused in the page). Screenshots go to
 * `<tmp>/postline-import-upload-screenshots/` for a person to look at.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import request from 'supertest';
import type { Browser } from 'playwright-core';
import { EmailPrisma } from '@email/data-access';
import { freePort, launchChromium, until } from '@shared/testing';
import { emailApi, EmailApiHarness } from './helpers';
import { openUploadPage, sendUpload, startUpload as startUploadOf } from './import-upload.fixture';

const SCREENSHOTS = path.join(tmpdir(), 'postline-import-upload-screenshots');

describe('email-api: subscriber import uploads', () => {
  let api: EmailApiHarness;
  let filesDir: string;
  let port: number;
  const logLines: Array<{ level: number; msg: string; [key: string]: unknown }> = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(
        ...chunk
          .toString('utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line)),
      );
      done();
    },
  });

  beforeAll(async () => {
    filesDir = mkdtempSync(path.join(tmpdir(), 'postline-import-files-'));
    // The page's own posts carry its origin, which must be the public base URL: the browser tests listen on it.
    port = await freePort();
    api = await emailApi(
      {
        SUBSCRIBER_JOB_FILES_DIR: filesDir,
        SUBSCRIBER_IMPORT_MAX_BYTES: String(64 * 1024),
        PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
        LOG_LEVEL: 'info',
      },
      logStream,
    );
  }, 60_000);

  afterAll(async () => {
    await api?.close();
    rmSync(filesDir, { recursive: true, force: true });
  });

  const startUpload = () => startUploadOf(api);
  const openPage = (pagePath: string) => openUploadPage(api, pagePath);
  const send = (pagePath: string, session: { cookie: string; csrf: string }, bytes: Buffer, name?: string) => sendUpload(api, pagePath, session, bytes, name);
  /** The app listening on the public base URL's port, for a browser or a raw socket. */
  const listening = async () => {
    if (!api.app.getHttpServer().listening) await api.app.listen(port, '127.0.0.1');
  };
  /** Posts a file as the page's plain form does without its script: the token field first, then the file. */
  const postForm = (pagePath: string, session: { cookie: string; csrf: string }, bytes: Buffer, name = 'list.csv') =>
    request(api.app.getHttpServer()).post(pagePath).set('cookie', session.cookie).field('csrf_token', session.csrf).attach('file', bytes, name);

  it('starts Pending with a one-time link that only the create response shows', async () => {
    const { body } = await api.as().post('/v1/jobs/subscriber-import-uploads').expect(201);
    expect(body.data).toEqual({
      self: `/v1/jobs/subscriber-import-uploads/${body.data.id}`,
      id: expect.stringMatching(/^imu_/),
      status: 'Pending',
      upload_url: `http://127.0.0.1:${port}/imports/subscribers/${body.data.upload_url.split('/').pop()}`,
      file_name: null,
      size_bytes: null,
      headers: [],
      row_count: null,
      import_job_id: null,
      expires_at: expect.any(String),
      uploaded_at: null,
      queued_at: null,
    });
    const read = await api.as().get(`/v1/jobs/subscriber-import-uploads/${body.data.id}`).expect(200);
    expect(read.body.data).toEqual({ ...body.data, upload_url: null });
  });

  it("is another workspace's 404, and needs subscribers:import", async () => {
    const { id } = await startUpload();
    const other = await api.newWorkspace();
    const missing = await api.as(other.api_key).get(`/v1/jobs/subscriber-import-uploads/${id}`).expect(404);
    expect(missing.body.error.code).toBe('subscriber_import_upload_not_found');
    await api
      .as(await api.keyWith(['subscribers:read']))
      .post('/v1/jobs/subscriber-import-uploads')
      .expect(403);
  });

  it('takes one UTF-16 file through the page, then is Ready with its columns and row count, and the link is spent', async () => {
    const upload = await startUpload();
    const page = await request(api.app.getHttpServer()).get(upload.path).expect(200);
    expect(page.headers['content-security-policy']).toContain("connect-src 'self'");
    const session = await openPage(upload.path);
    const file = Buffer.from(`\uFEFFEmail\tFirst name\ta@example.com\tÅsa\nb@example.com\t"Bo\nB."\n`.replace('\ta@', '\na@'), 'utf16le');
    const sent = await send(upload.path, session, file, 'Kunden Export.csv').expect(200);
    expect(sent.body).toEqual({ file_name: 'Kunden Export.csv', size_bytes: file.length, headers: ['Email', 'First name'], row_count: 2 });
    const { body } = await api.as().get(`/v1/jobs/subscriber-import-uploads/${upload.id}`).expect(200);
    expect(body.data).toMatchObject({
      status: 'Ready',
      file_name: 'Kunden Export.csv',
      size_bytes: file.length,
      headers: ['Email', 'First name'],
      row_count: 2,
    });
    expect(body.data.uploaded_at).not.toBeNull();
    expect((await send(upload.path, session, file).expect(410)).body.error.code).toBe('link_used');
    await request(api.app.getHttpServer()).get(upload.path).expect(410);
    expect(readdirSync(path.join(filesDir, 'imports', api.workspaceId))).toEqual([`${upload.id}.csv`]);
  });

  it('refuses a post without the page token, and a file with no header row, an empty, binary or over-size one, keeping the link usable', async () => {
    const upload = await startUpload();
    const session = await openPage(upload.path);
    await send(upload.path, { ...session, csrf: 'x'.repeat(32) }, Buffer.from('email\na@example.com\n')).expect(403);
    expect((await send(upload.path, session, Buffer.from(',,\n,,\n')).expect(422)).body.error.code).toBe('no_header_row');
    expect((await send(upload.path, session, Buffer.alloc(0)).expect(422)).body.error.code).toBe('empty_file');
    expect((await send(upload.path, session, Buffer.alloc(65 * 1024, 'a')).expect(413)).body.error.code).toBe('file_too_large');
    const binary = Buffer.from([...Buffer.from('email,na'), 0, ...Buffer.from('me\nx@example.com,a\n')]);
    expect((await send(upload.path, session, binary).expect(422)).body.error.code).toBe('unreadable_csv');
    const corrupt = await send(upload.path, session, Buffer.from('email,name\na@example.com,"A\n')).expect(422);
    expect(corrupt.body.error.message).toMatch(/line 2/);
    expect((await api.as().get(`/v1/jobs/subscriber-import-uploads/${upload.id}`).expect(200)).body.data.status).toBe('Pending');
    await send(upload.path, session, Buffer.from('email;name\na@example.com;A\n')).expect(200);
  });

  it('takes a file through the plain form (no script) and answers with a page of its columns and row count', async () => {
    const upload = await startUpload();
    const session = await openPage(upload.path);
    const sent = await postForm(upload.path, session, Buffer.from('Email,First name\na@example.com,Åsa\nb@example.com,Bo\n'), 'Kundenliste März.csv').expect(
      200,
    );
    expect(sent.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(sent.text).toContain('<strong>Uploaded Kundenliste März.csv</strong><p>2 rows found.');
    expect(sent.text).toContain('<ul class="columns"><li>Email</li><li>First name</li></ul>');
    expect((await api.as().get(`/v1/jobs/subscriber-import-uploads/${upload.id}`).expect(200)).body.data).toMatchObject({
      status: 'Ready',
      file_name: 'Kundenliste März.csv',
      headers: ['Email', 'First name'],
      row_count: 2,
    });
    expect((await postForm(upload.path, session, Buffer.from('email\na@example.com\n')).expect(410)).text).toContain('This link was already used');
  });

  it('refuses through the plain form what the script refuses, with the same messages in the page, keeping the link usable', async () => {
    const upload = await startUpload();
    const session = await openPage(upload.path);
    const alertOf = (html: string) => /<div class="alert alert-error" id="error" role="alert">([^<]*)<\/div>/.exec(html)?.[1];
    const refusals: Array<[Buffer, string, number, string]> = [
      [Buffer.from('png'), 'photo.png', 422, '“photo.png” is not a CSV file. Choose a .csv file (a .tsv or .txt export works too).'],
      [Buffer.alloc(0), 'empty.csv', 422, '“empty.csv” is empty. Choose a CSV file with a header row.'],
      [Buffer.from(',,\n,,\n'), 'blank.csv', 422, 'The first line of the file holds no column names.'],
      [Buffer.alloc(65 * 1024, 'a'), 'huge.csv', 413, '“huge.csv” is larger than 64 KB, the most an import accepts.'],
    ];
    for (const [bytes, name, status, message] of refusals) {
      const page = await postForm(upload.path, session, bytes, name).expect(status);
      expect(alertOf(page.text)).toBe(message);
      expect(page.text).toContain('name="csrf_token"');
    }
    const forged = await postForm(upload.path, { ...session, csrf: 'x'.repeat(32) }, Buffer.from('email\na@example.com\n')).expect(403);
    expect(alertOf(forged.text)).toBe('The page could not be checked. Open the upload link again in this browser and retry.');
    expect((await api.as().get(`/v1/jobs/subscriber-import-uploads/${upload.id}`).expect(200)).body.data.status).toBe('Pending');
    await postForm(upload.path, session, Buffer.from('email\na@example.com\n')).expect(200);
  });

  it.each(['form', 'script'] as const)('frees the link when an upload by the %s breaks off halfway', async (way) => {
    const upload = await startUpload();
    const session = await openPage(upload.path);
    await listening();
    const prisma = api.app.get(EmailPrisma);
    const receiving = async () => (await prisma.subscriberImportUpload.findUniqueOrThrow({ where: { id: upload.id } })).receiving_since !== null;
    const boundary = 'postline-test-boundary';
    const [headers, body] =
      way === 'form'
        ? [
            `content-type: multipart/form-data; boundary=${boundary}`,
            `--${boundary}\r\ncontent-disposition: form-data; name="csrf_token"\r\n\r\n${session.csrf}\r\n` +
              `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="half.csv"\r\ncontent-type: text/csv\r\n\r\nemail\na@example.com\n`,
          ]
        : [`content-type: application/octet-stream\r\nx-csrf-token: ${session.csrf}\r\nx-file-name: half.csv`, 'email\na@example.com\n'];
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST ${upload.path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncookie: ${session.cookie}\r\n${headers}\r\ncontent-length: ${body.length + 10_000}\r\n\r\n${body}`,
    );
    await until('the upload to be receiving', receiving);
    const logged = logLines.length;
    socket.destroy();
    await until('the upload to stop receiving', async () => !(await receiving()));
    await postForm(upload.path, session, Buffer.from('email\na@example.com\n')).expect(200);
    await until('the broke-off log line', async () => logLines.slice(logged).some((line) => /broke off/.test(line.msg)));

    // The client went away: no error, no stack, no 500, one line below warning saying so.
    const lines = logLines.slice(logged);
    expect(lines.filter((line) => line.level >= 40 || line.status === 500 || JSON.stringify(line).includes('    at '))).toEqual([]);
    expect(lines.filter((line) => /broke off/.test(line.msg))).toEqual([expect.objectContaining({ level: 30 })]);
  });

  it('answers 404 for a made-up link and a 415 for raw bytes, a multipart or a form-encoded body anywhere else', async () => {
    await request(api.app.getHttpServer())
      .get(`/imports/subscribers/${'a'.repeat(43)}`)
      .expect(404);
    await api.as().post('/v1/subscribers').set('content-type', 'application/octet-stream').send(Buffer.from('x')).expect(415);
    await api.as().post('/v1/subscribers').attach('file', Buffer.from('x'), 'x.csv').expect(415);
    // A form-encoded body (what a cross-site HTML form posts) is no JSON either, on the API and on MCP.
    const form = await api.as().post('/v1/tags').type('form').send({ name: 'From a form' }).expect(415);
    expect(form.body.error.code).toBe('unsupported_media_type');
    await api.as().post('/mcp').type('form').send({ jsonrpc: '2.0' }).expect(415);
    expect((await api.as().get('/v1/tags').expect(200)).body.data.map((tag: { name: string }) => tag.name)).not.toContain('From a form');
  });

  describe('in Chromium', () => {
    let browser: Browser;
    let origin: string;

    beforeAll(async () => {
      mkdirSync(SCREENSHOTS, { recursive: true });
      browser = await launchChromium();
      await listening();
      origin = `http://127.0.0.1:${port}`;
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
    });

    it('chooses a file, shows the progress, then the detected columns and row count', async () => {
      const upload = await startUpload();
      const file = path.join(filesDir, 'subscribers.csv');
      writeFileSync(file, `email;name;country;Favorite color\n${Array.from({ length: 1500 }, (_, i) => `p${i}@example.com;Person ${i};DE;blue`).join('\n')}\n`);
      const context = await browser.newContext({ viewport: { width: 1024, height: 800 } });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (message) => message.type() === 'error' && problems.push(`console: ${message.text()}`));
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      expect((await page.goto(`${origin}${upload.path}`, { waitUntil: 'load' }))?.status()).toBe(200);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'choose.png'), fullPage: true });

      const progressShown = page.waitForFunction(() => !(document.getElementById('progress') as HTMLProgressElement).hidden);
      await page.setInputFiles('#file', file);
      await progressShown;
      await page.getByText('1,500 rows found').waitFor();
      expect(await page.locator('#result-columns li').allTextContents()).toEqual(['email', 'name', 'country', 'Favorite color']);
      expect(await page.locator('#result-name').textContent()).toBe('subscribers.csv');
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Your file is uploaded');
      await page.screenshot({ path: path.join(SCREENSHOTS, 'uploaded.png'), fullPage: true });
      expect(problems).toEqual([]);
      expect((await api.as().get(`/v1/jobs/subscriber-import-uploads/${upload.id}`).expect(200)).body.data).toMatchObject({ status: 'Ready', row_count: 1500 });
      await context.close();
    });

    it('works without JavaScript: a plain form, a refused file explained in the page, then the detected columns and row count', async () => {
      const upload = await startUpload();
      const file = path.join(filesDir, 'no-script.csv');
      writeFileSync(file, `email,name,Plan\n${Array.from({ length: 1500 }, (_, i) => `p${i}@example.com,Person ${i},gold`).join('\n')}\n`);
      const context = await browser.newContext({ viewport: { width: 1024, height: 800 }, javaScriptEnabled: false });
      const page = await context.newPage();
      expect((await page.goto(`${origin}${upload.path}`, { waitUntil: 'load' }))?.status()).toBe(200);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'no-js-choose.png'), fullPage: true });

      const submit = async (chosen: string | { name: string; mimeType: string; buffer: Buffer }) => {
        await page.setInputFiles('#file', chosen);
        const [response] = await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Upload' }).click()]);
        return response!.status();
      };
      expect(await submit({ name: 'photo.png', mimeType: 'image/png', buffer: Buffer.from('png') })).toBe(422);
      await page.getByRole('alert').getByText('“photo.png” is not a CSV file').waitFor();
      expect(await submit({ name: 'huge.csv', mimeType: 'text/csv', buffer: Buffer.alloc(2 * 1024 * 1024, 'a') })).toBe(413);
      await page.getByRole('alert').getByText('“huge.csv” is larger than 64 KB, the most an import accepts.').waitFor();
      await page.screenshot({ path: path.join(SCREENSHOTS, 'no-js-refused.png'), fullPage: true });

      expect(await submit(file)).toBe(200);
      await page.getByText('1,500 rows found').waitFor();
      expect(await page.locator('.columns li').allTextContents()).toEqual(['email', 'name', 'Plan']);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Your file is uploaded');
      await page.screenshot({ path: path.join(SCREENSHOTS, 'no-js-uploaded.png'), fullPage: true });
      expect((await api.as().get(`/v1/jobs/subscriber-import-uploads/${upload.id}`).expect(200)).body.data).toMatchObject({ status: 'Ready', row_count: 1500 });
      await context.close();
    });

    it('refuses a file that is not CSV, or too large, in the page without sending it', async () => {
      const upload = await startUpload();
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      const posts: string[] = [];
      page.on('request', (sent) => sent.method() === 'POST' && posts.push(sent.url()));
      await page.goto(`${origin}${upload.path}`, { waitUntil: 'load' });
      await page.setInputFiles('#file', { name: 'photo.png', mimeType: 'image/png', buffer: Buffer.from('png') });
      await page.getByRole('alert').getByText('“photo.png” is not a CSV file').waitFor();
      await page.setInputFiles('#file', { name: 'huge.csv', mimeType: 'text/csv', buffer: Buffer.alloc(70 * 1024, 'a') });
      await page.getByRole('alert').getByText('“huge.csv” is 70 KB; the most an import accepts is 64 KB.').waitFor();
      await page.screenshot({ path: path.join(SCREENSHOTS, 'refused-phone.png'), fullPage: true });
      expect(posts).toEqual([]);
      await context.close();
    });
  });
});
