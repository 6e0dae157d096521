/**
 * Email delivery connections end to end: a setup session's browser page (headless Chromium) takes custom SMTP
 * credentials pointing at a local smtp-server, tests them live and saves them sealed; the JSON API then lists, verifies,
 * test-sends through, updates, disables and deletes the connection. The secret must appear in no response, no log line
 * and no error body. Screenshots go to `<tmp>/postline-setup-screenshots/` for a person to look at.
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Browser, Page } from 'playwright-core';
import request from 'supertest';
import { AccessService } from '@email/access';
import { EmailPrisma } from '@email/data-access';
import { createTestApp, createTestDatabase, freePort, launchChromium, SmtpSink, TestDatabase } from '@shared/testing';
import { AppModule, EMAIL_HTTP_OPTIONS } from '../src/app.module';
import { postmarkWebhook } from '../src/http/delivery-feedback/feedback-signing.fixture';
import { FAKE_POSTMARK_CREDENTIALS, FakePostmark, startFakeProvider } from '../../../libs/email/delivery/src/testing/provider-fakes.fixture';

const SCREENSHOTS = path.join(tmpdir(), 'postline-setup-screenshots');
const PASSWORD = 'sink-pass-Zq81-never-shown';
const CONNECTIONS = '/v1/email-delivery-connections';
const SESSIONS = '/v1/email-delivery-connection-setup-sessions';

describe('email-api: delivery connections and their setup page', () => {
  const sink = new SmtpSink({ user: 'mailer', pass: PASSWORD });
  const logLines: string[] = [];
  const bodies: string[] = [];
  let db: TestDatabase;
  let app: NestFastifyApplication;
  let browser: Browser;
  let origin: string;
  let key: string;
  let otherKey: string;
  let postmark: FakePostmark;

  const api = (method: 'get' | 'post' | 'put' | 'patch' | 'delete', url: string, as = key) => {
    const test = request(app.getHttpServer())[method](url).set('authorization', `Bearer ${as}`);
    // Every answer is kept, to check afterwards that none of them held the secret.
    return test.on('response', (response: { text?: string }) => bodies.push(response.text ?? ''));
  };
  const startSession = async (body: object = {}) =>
    (
      await api('post', SESSIONS)
        .send({ name: 'Local sink', provider: 'custom-smtp', from_email: 'news@postline.test', from_name: 'Postline News', ...body })
        .expect(201)
    ).body.data as { id: string; setup_url: string; status: string; connection_id: string | null };
  const pathOf = (setupUrl: string) => new URL(setupUrl).pathname;

  async function fill(page: Page, values: Record<string, string>) {
    for (const [name, value] of Object.entries(values)) {
      const field = page.locator(`[name="${name}"]`);
      if ((await field.evaluate((element) => element.tagName)) === 'SELECT') await field.selectOption(value);
      else await field.fill(value);
    }
  }

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    await sink.start();
    postmark = await startFakeProvider('postmark');
    browser = await launchChromium();
    db = await createTestDatabase('email');
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    const logStream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    app = await createTestApp(
      AppModule,
      {
        EMAIL_DATABASE_URL: db.url,
        AUTH_CACHE_TTL_MS: '0',
        PUBLIC_BASE_URL: origin,
        LOG_LEVEL: 'debug',
        DELIVERY_PROVIDER_TIMEOUT_MS: '3000',
        DELIVERY_BASE_URL_POSTMARK: postmark.baseUrl,
      },
      { ...EMAIL_HTTP_OPTIONS, logStream },
    );
    await app.listen(port, '127.0.0.1');
    key = (await app.get(AccessService).createWorkspace('Northwind Coffee')).api_key;
    otherKey = (await app.get(AccessService).createWorkspace('Other')).api_key;
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await db?.drop();
    await sink.stop();
    await postmark?.stop();
  });

  it('refuses setup requests that miss what their purpose needs, naming the field', async () => {
    const refused = async (body: object, field: string, code = 'validation_failed') => {
      const response = await api('post', SESSIONS).send(body).expect(400);
      expect(response.body.error).toMatchObject({ code, details: { field } });
    };
    await refused({ provider: 'custom-smtp', from_email: 'a@b.test', from_name: 'A' }, 'name');
    await refused({ name: 'x', provider: 'smtp', from_email: 'a@b.test', from_name: 'A' }, 'provider');
    await refused({ name: 'x', provider: 'custom-smtp', from_email: 'not-an-email', from_name: 'A' }, 'from_email');
    await refused({ purpose: 'replace_credentials' }, 'connection_id');
    await refused({ purpose: 'replace_credentials', connection_id: 'edc_missing' }, 'connection_id', 'unknown_email_delivery_connection');
    // Secrets are never accepted by the JSON API: the request schema is closed.
    const secret = await api('post', SESSIONS)
      .send({ name: 'x', provider: 'custom-smtp', from_email: 'a@b.test', from_name: 'A', password: PASSWORD })
      .expect(400);
    expect(secret.body.error).toMatchObject({ code: 'validation_failed', details: { field: 'password' } });
    expect(await app.get(EmailPrisma).deliveryConnectionSetupSession.count()).toBe(0);
  });

  it('sets up a custom SMTP connection in the browser: a failed live test, then a good one', async () => {
    const session = await startSession();
    expect(session).toMatchObject({
      status: 'pending',
      connection_id: null,
      setup_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/setup\/email-delivery\//),
    });
    const read = (await api('get', `${SESSIONS}/${session.id}`).expect(200)).body.data;
    expect(read).not.toHaveProperty('setup_url');
    expect(read.status).toBe('pending');

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems: string[] = [];
    const foreign: string[] = [];
    // A form sent back with a failed test is a 422, which Chromium also reports on the console; anything else is a problem.
    page.on('console', (message) => message.type() === 'error' && !message.text().includes('status of 422') && problems.push(message.text()));
    page.on('request', (sent) => !sent.url().startsWith(origin) && foreign.push(sent.url()));
    expect((await page.goto(session.setup_url))?.status()).toBe(200);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Connect Custom SMTP');
    expect(await page.locator('.sender').textContent()).toContain('Postline News <news@postline.test>');
    expect(await page.locator('input[name="password"]').getAttribute('type')).toBe('password');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'form.png'), fullPage: true });

    await fill(page, { host: '127.0.0.1', port: String(sink.port), secure_mode: 'none', username: 'mailer', password: 'wrong-password' });
    const [failedTest] = await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Test and save' }).click()]);
    expect(failedTest?.status()).toBe(422);
    expect(await page.getByRole('alert').textContent()).toContain('The provider did not accept these credentials.');
    expect(await page.getByRole('alert').textContent()).toContain('4 more tries are left');
    // What was typed comes back, except the password.
    expect(await page.locator('input[name="host"]').inputValue()).toBe('127.0.0.1');
    expect(await page.locator('input[name="password"]').inputValue()).toBe('');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'failed-test.png'), fullPage: true });

    await fill(page, { password: PASSWORD });
    await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Test and save' }).click()]);
    expect(await page.getByRole('status').first().textContent()).toContain('The connection works and is saved.');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'done.png'), fullPage: true });
    expect(problems).toEqual([]);
    expect(foreign).toEqual([]);
    await context.close();

    const completed = (await api('get', `${SESSIONS}/${session.id}`).expect(200)).body.data;
    expect(completed).toMatchObject({
      status: 'completed',
      connection_id: expect.stringMatching(/^edc_/),
      completed_at: expect.any(String),
      failure_code: null,
    });
    const connection = (await api('get', `${CONNECTIONS}/${completed.connection_id}`).expect(200)).body.data;
    expect(connection).toEqual({
      self: `${CONNECTIONS}/${completed.connection_id}`,
      id: completed.connection_id,
      name: 'Local sink',
      provider: 'custom-smtp',
      from_email: 'news@postline.test',
      from_name: 'Postline News',
      enabled: true,
      provider_config: { host: '127.0.0.1', port: sink.port, secure_mode: 'none', username: 'mailer', has_password: true },
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const stored = await app.get(EmailPrisma).deliveryConnection.findUniqueOrThrow({ where: { id: connection.id } });
    expect(stored.secrets).toMatch(/^pl1\./);
    expect(stored.secrets).not.toContain(PASSWORD);
    const identities = (await api('get', '/v1/sender-identities').expect(200)).body.data;
    expect(identities.map((identity: { id: string }) => identity.id)).toEqual([connection.id]);

    // The link worked once.
    const reused = await request(app.getHttpServer()).get(pathOf(session.setup_url)).expect(410);
    expect(reused.text).toContain('This link was already used');
    await api('post', `${SESSIONS}/${session.id}/renew`).expect(409);
  }, 60_000);

  it('works without JavaScript, and refuses a post without the CSRF cookie', async () => {
    const session = await startSession({ name: 'No script' });
    const forged = await request(app.getHttpServer())
      .post(pathOf(session.setup_url))
      .type('form')
      .send({ csrf_token: 'x'.repeat(32), host: '127.0.0.1', port: String(sink.port), secure_mode: 'none', username: 'mailer', password: PASSWORD })
      .expect(403);
    expect(forged.text).toContain('The form could not be checked');
    expect((await api('get', `${SESSIONS}/${session.id}`).expect(200)).body.data.status).toBe('pending');

    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(session.setup_url);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'phone-form.png'), fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await fill(page, { host: '127.0.0.1', port: String(sink.port), secure_mode: 'none', username: 'mailer', password: PASSWORD });
    await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Test and save' }).click()]);
    expect(await page.locator('.alert-ok').textContent()).toContain('No script (Custom SMTP) can now send email for Northwind Coffee.');
    await context.close();
  }, 60_000);

  it('names the field a live test cannot even try, and ends the session after five failed tests', async () => {
    const session = await startSession({ name: 'Doomed' });
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(session.setup_url);
    await fill(page, { host: 'smtp.example.com', port: '587', secure_mode: 'starttls', password: 'x' });
    await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Test and save' }).click()]);
    // This deployment only delivers to loopback hosts: said next to the host, and not counted as a failed test.
    expect(await page.locator('#field-host-error').textContent()).toContain('non-loopback host');
    for (let attempt = 1; attempt <= 5; attempt++) {
      await fill(page, { host: '127.0.0.1', port: String(sink.port), secure_mode: 'none', username: 'mailer', password: `wrong-${attempt}` });
      await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Test and save' }).click()]);
    }
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('This setup link stopped working');
    await context.close();
    const failed = (await api('get', `${SESSIONS}/${session.id}`).expect(200)).body.data;
    expect(failed).toMatchObject({ status: 'failed', failure_code: 'setup_action_failed', failed_at: expect.any(String), connection_id: null });

    // Renewing a failed session gives a fresh link with the same defaults; the old link stays dead.
    const renewed = (await api('post', `${SESSIONS}/${session.id}/renew`).expect(201)).body.data;
    expect(renewed).toMatchObject({ status: 'pending', purpose: 'create', setup_url: expect.any(String) });
    expect(renewed.id).not.toBe(session.id);
    await request(app.getHttpServer()).get(pathOf(session.setup_url)).expect(410);
    expect((await request(app.getHttpServer()).get(pathOf(renewed.setup_url)).expect(200)).text).toContain('Doomed');
  }, 60_000);

  it('expires a link after its time, and renewing a pending session retires its old link', async () => {
    const session = await startSession({ name: 'Late' });
    const renewed = (await api('post', `${SESSIONS}/${session.id}/renew`).expect(201)).body.data;
    expect((await api('get', `${SESSIONS}/${session.id}`).expect(200)).body.data.status).toBe('expired');
    await request(app.getHttpServer()).get(pathOf(session.setup_url)).expect(410);
    await app.get(EmailPrisma).deliveryConnectionSetupSession.update({ where: { id: renewed.id }, data: { expires_at: new Date(Date.now() - 1000) } });
    expect((await api('get', `${SESSIONS}/${renewed.id}`).expect(200)).body.data.status).toBe('expired');
    expect((await request(app.getHttpServer()).get(pathOf(renewed.setup_url)).expect(410)).text).toContain('This setup link expired');
    await request(app.getHttpServer()).get('/setup/email-delivery/not-a-real-token-at-all-000').expect(404);
  });

  describe('the connection API', () => {
    let id: string;

    beforeAll(async () => {
      const rows = await app.get(EmailPrisma).deliveryConnection.findMany({ where: { name: 'Local sink' } });
      id = rows[0].id;
    });

    it('lists connections and keeps them to their workspace', async () => {
      const list = (await api('get', `${CONNECTIONS}?limit=1`).expect(200)).body;
      expect(list.data).toHaveLength(1);
      expect(list.pagination).toMatchObject({ has_more: true });
      await api('get', `${CONNECTIONS}/${id}`, otherKey).expect(404);
      await api('post', `${CONNECTIONS}/${id}/verify`, otherKey).expect(404);
      await api('delete', `${CONNECTIONS}/${id}`, otherKey).expect(404);
      expect((await api('get', CONNECTIONS, otherKey).expect(200)).body.data).toEqual([]);
    });

    it('verifies the saved credentials without sending anything', async () => {
      const before = sink.received.length;
      const verified = (await api('post', `${CONNECTIONS}/${id}/verify`).expect(200)).body.data;
      expect(verified).toEqual({
        connection_id: id,
        verification_status: 'verified',
        inspection_status: 'available',
        message: expect.any(String),
        verified_at: expect.any(String),
      });
      expect(sink.received.length).toBe(before);
    });

    it('sends a test email that arrives with its MIME parts and headers; needs an Idempotency-Key; at most five per window', async () => {
      const missing = await api('post', `${CONNECTIONS}/${id}/test`).send({ to: 'owner@postline.test' }).expect(400);
      expect(missing.body.error).toMatchObject({ code: 'idempotency_key_required', details: { field: 'Idempotency-Key' } });
      sink.received.length = 0;
      const sent = await api('post', `${CONNECTIONS}/${id}/test`).set('idempotency-key', 'test-1').send({ to: 'owner@postline.test' }).expect(200);
      expect(sent.body.data).toEqual({ connection_id: id, recipient: 'owner@postline.test', status: 'sent', sent_at: expect.any(String) });
      await api('post', `${CONNECTIONS}/${id}/test`)
        .set('idempotency-key', 'test-1')
        .send({ to: 'owner@postline.test' })
        .expect(200)
        .expect('idempotent-replayed', 'true');
      expect(sink.received).toHaveLength(1);
      const [mail] = sink.received;
      expect(mail.to).toEqual(['owner@postline.test']);
      expect(mail.raw).toMatch(/^From: Postline News <news@postline\.test>\r$/m);
      expect(mail.raw).toMatch(/^Subject: Test email: Local sink\r$/m);
      expect(mail.raw).toMatch(/^Message-ID: <msg_[0-9A-Z]+@postline\.test>\r$/m);
      expect(mail.raw).toMatch(/^Content-Type: multipart\/alternative;/m);
      expect(mail.raw).toMatch(/^Content-Type: text\/plain/m);
      expect(mail.raw).toMatch(/^Content-Type: text\/html/m);

      for (let n = 2; n <= 5; n++)
        await api('post', `${CONNECTIONS}/${id}/test`).set('idempotency-key', `test-${n}`).send({ to: 'owner@postline.test' }).expect(200);
      const limited = await api('post', `${CONNECTIONS}/${id}/test`).set('idempotency-key', 'test-6').send({ to: 'owner@postline.test' }).expect(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(sink.received).toHaveLength(5);
    });

    it('reports a refused test email as a 400 with the provider words, and an unreachable server as retryable', async () => {
      const session = await startSession({ name: 'Refusing' });
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(session.setup_url);
      await fill(page, { host: '127.0.0.1', port: String(sink.port), secure_mode: 'none', username: 'mailer', password: PASSWORD });
      await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Test and save' }).click()]);
      await context.close();
      const refusing = (await api('get', `${SESSIONS}/${session.id}`).expect(200)).body.data.connection_id as string;
      sink.behaviour = { reject: { stage: 'rcpt', code: 550, text: '5.1.1 Mailbox unknown' } };
      const refused = await api('post', `${CONNECTIONS}/${refusing}/test`).set('idempotency-key', 'refused-1').send({ to: 'nobody@postline.test' }).expect(400);
      expect(refused.body.error).toMatchObject({ code: 'delivery_test_refused', details: { reason: '5.1.1' } });
      expect(refused.body.error.message).toContain('Mailbox unknown');
      sink.behaviour = {};
    }, 30_000);

    it("sets the connection's own send limits, falls back to the provider's defaults on null, and names a bad value", async () => {
      const limits = `${CONNECTIONS}/${id}/send-limits`;
      const defaults = { send_rate_per_second: 50, send_connections: 5, daily_quota: null };
      expect((await api('get', limits).expect(200)).body.data).toEqual({
        self: limits,
        connection_id: id,
        effective: defaults,
        settings: { send_rate_per_second: null, send_connections: null, daily_quota: null },
        provider_defaults: defaults,
      });
      const set = (await api('put', limits).send({ send_rate_per_second: 12, daily_quota: 2000 }).expect(200)).body.data;
      expect(set.effective).toEqual({ send_rate_per_second: 12, send_connections: 5, daily_quota: 2000 });
      expect(set.settings).toEqual({ send_rate_per_second: 12, send_connections: null, daily_quota: 2000 });
      const reset = (await api('put', limits).send({ send_rate_per_second: null }).expect(200)).body.data;
      expect(reset.effective).toEqual({ send_rate_per_second: 50, send_connections: 5, daily_quota: 2000 });

      for (const [body, field] of [
        [{ send_rate_per_second: 0 }, 'send_rate_per_second'],
        [{ send_connections: 2.5 }, 'send_connections'],
        [{ send_connections: 101 }, 'send_connections'],
        [{ daily_quota: '100' }, 'daily_quota'],
        [{ burst: 10 }, 'burst'],
      ] as const) {
        const refused = await api('put', limits).send(body).expect(400);
        expect(refused.body.error.details).toMatchObject({ field });
      }
      expect((await api('put', limits).send({}).expect(400)).body.error).toMatchObject({ code: 'empty_update', details: { field: 'body' } });
      await api('get', limits, otherKey).expect(404);
      await api('put', limits, otherKey).send({ send_connections: 1 }).expect(404);
      expect((await api('get', limits).expect(200)).body.data.effective).toEqual({ send_rate_per_second: 50, send_connections: 5, daily_quota: 2000 });
      await api('put', limits).send({ daily_quota: null }).expect(200);
    });

    it('updates names, disables and deletes; a disabled connection is no sender identity', async () => {
      const empty = await api('patch', `${CONNECTIONS}/${id}`).send({}).expect(400);
      expect(empty.body.error).toMatchObject({ code: 'empty_update', details: { field: 'body' } });
      await api('patch', `${CONNECTIONS}/${id}`)
        .send({ provider_config: { host: 'evil.test' } })
        .expect(400);
      const renamed = (await api('patch', `${CONNECTIONS}/${id}`).send({ name: 'Main sender', from_name: 'Northwind' }).expect(200)).body.data;
      expect(renamed).toMatchObject({ name: 'Main sender', from_name: 'Northwind', from_email: 'news@postline.test' });
      expect((await api('put', `${CONNECTIONS}/${id}/status`).send({ enabled: false }).expect(200)).body.data.enabled).toBe(false);
      expect((await api('get', '/v1/sender-identities').expect(200)).body.data.map((identity: { id: string }) => identity.id)).not.toContain(id);
      await api('put', `${CONNECTIONS}/${id}/status`).send({ enabled: 'yes' }).expect(400);
      expect((await api('put', `${CONNECTIONS}/${id}/status`).send({ enabled: true }).expect(200)).body.data.enabled).toBe(true);
      // A scheduled broadcast sends through it: no changes, no delete, until it is back to draft.
      const prisma = app.get(EmailPrisma);
      const workspaceId = (await prisma.deliveryConnection.findUniqueOrThrow({ where: { id } })).workspace_id;
      await prisma.broadcast.create({
        data: {
          id: 'brd_uses_it',
          workspace_id: workspaceId,
          subject: 'Autumn news',
          body_document: { type: 'doc' },
          body: '',
          status: 'scheduled',
          connection_id: id,
        },
      });
      const busy = await api('delete', `${CONNECTIONS}/${id}`).expect(409);
      expect(busy.body.error).toMatchObject({
        code: 'email_delivery_connection_in_use',
        used_by: [{ type: 'broadcast', id: 'brd_uses_it', name: 'Autumn news' }],
      });
      await api('patch', `${CONNECTIONS}/${id}`).send({ from_name: 'Someone else' }).expect(409);
      await prisma.broadcast.update({ where: { id: 'brd_uses_it' }, data: { status: 'draft' } });
      await api('delete', `${CONNECTIONS}/${id}`).expect(204);
      await api('get', `${CONNECTIONS}/${id}`).expect(404);
      await api('delete', `${CONNECTIONS}/${id}`).expect(404);
    });

    it('refuses to enable a connection whose secrets this server cannot open', async () => {
      const [row] = await app.get(EmailPrisma).deliveryConnection.findMany({ where: { name: 'No script' } });
      await app.get(EmailPrisma).deliveryConnection.update({ where: { id: row.id }, data: { enabled: false, secrets: `${row.secrets!.slice(0, -4)}AAAA` } });
      const refused = await api('put', `${CONNECTIONS}/${row.id}/status`).send({ enabled: true }).expect(409);
      expect(refused.body.error.code).toBe('delivery_connection_incomplete');
      await api('post', `${CONNECTIONS}/${row.id}/verify`).expect(409);
    });
  });

  it('sets up Postmark against its local fake, sends through it, and takes its bounce webhook with the token the page showed', async () => {
    const session = await startSession({ name: 'Postmark', provider: 'postmark', from_email: 'hello@postline.test', from_name: 'Hello' });
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(session.setup_url);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Connect Postmark');
    await fill(page, { server_token: FAKE_POSTMARK_CREDENTIALS.serverToken });
    await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Test and save' }).click()]);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'postmark-done.png'), fullPage: true });
    const [feedbackUrl, feedbackToken] = await page.locator('code').allTextContents();
    await context.close();
    const id = (await api('get', `${SESSIONS}/${session.id}`).expect(200)).body.data.connection_id as string;
    expect(feedbackUrl).toBe(`${origin}/v1/delivery-feedback/${id}`);
    expect((await api('get', `${CONNECTIONS}/${id}`).expect(200)).body.data.provider_config).toEqual({ has_server_token: true, has_account_token: false });

    await api('post', `${CONNECTIONS}/${id}/test`).set('idempotency-key', 'postmark-1').send({ to: 'reader@postline.test' }).expect(200);
    expect(postmark.accepted.map((message) => message.to)).toEqual(['reader@postline.test']);

    const subscriber = (await api('post', '/v1/subscribers').send({ email: 'bouncy@postline.test' }).expect(201)).body.data as { id: string };
    const webhook = postmarkWebhook.signed('hard', 'bouncy@postline.test', '4242', { feedbackToken });
    const forged = postmarkWebhook.forged('hard', 'bouncy@postline.test', '4243', { feedbackToken });
    const deliver = (signed: typeof webhook) =>
      request(app.getHttpServer()).post(new URL(feedbackUrl).pathname).set(signed.headers).type(signed.contentType).send(signed.body);
    await deliver(forged).expect(401);
    await deliver(webhook).expect(200);
    expect((await api('get', `/v1/subscribers/${subscriber.id}`).expect(200)).body.data.status).toBe('Bounced');
  }, 30_000);

  it("serves the guide a delivery limitation's setup_url points at, showing nothing of the workspace", async () => {
    const capabilities = (await api('get', '/v1/capabilities', otherKey).expect(200)).body.data;
    const setupUrl = new URL(capabilities.limitations.find((l: { code: string }) => l.code === 'email_delivery_connection_missing').setup_url);
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    expect((await page.goto(`${origin}${setupUrl.pathname}${setupUrl.search}`))?.status()).toBe(200);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Connect an email delivery provider');
    expect(await page.content()).not.toContain(setupUrl.searchParams.get('workspace'));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'guide.png'), fullPage: true });
    await context.close();
  });

  it('never shows the SMTP password: not in a response, a log line or an error body', () => {
    expect(bodies.length).toBeGreaterThan(20);
    expect(logLines.length).toBeGreaterThan(20);
    for (const text of [...bodies, ...logLines]) {
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain(FAKE_POSTMARK_CREDENTIALS.serverToken);
    }
  });
});
