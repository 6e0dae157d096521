/**
 * Limits on what anyone can reach without a key: public submissions and uploads (per client IP and per form) and
 * hosted pages (per client IP). Counted in Redis, so every replica shares them. Each test speaks from IPs of its own
 * (X-Forwarded-For: the app trusts its proxy) and uses fresh forms, so counters in the shared Redis never collide.
 */
import { randomInt } from 'node:crypto';
import request from 'supertest';
import { launchChromium, listenOnLoopback } from '@shared/testing';
import { formsApi, FormsApiHarness } from './helpers';

const LIMITS = {
  FORMS_SUBMISSIONS_PER_IP: '3',
  FORMS_SUBMISSIONS_PER_FORM: '5',
  FORMS_UPLOADS_PER_IP: '2',
  FORMS_UPLOADS_PER_FORM: '4',
  FORMS_HOSTED_PAGES_PER_IP: '4',
  FORMS_PUBLIC_LIMIT_WINDOW_SECONDS: '60',
};

const draft = (name: string) => ({
  settings: { name },
  steps: [
    {
      id: 'stp_1',
      title: 'One',
      fields: [
        { id: 'fld_email', type: 'email', label: 'Email' },
        { id: 'fld_cv', type: 'file_upload', label: 'CV' },
      ],
    },
  ],
});

/** An address from the TEST-NET ranges, different on every call of a run. */
const newIp = () => `198.51.${randomInt(0, 256)}.${randomInt(1, 255)}`;

describe('forms-api: limits on the public endpoints', () => {
  let api: FormsApiHarness;
  const server = () => api.app.getHttpServer();

  beforeAll(async () => {
    api = await formsApi(LIMITS);
  });
  afterAll(() => api?.close());

  const publishedForm = async (harness = api): Promise<string> => {
    const created = (
      await harness
        .as()
        .post('/api/v1/forms')
        .send({ draftSchema: draft(`Form ${randomInt(1e9)}`) })
        .expect(201)
    ).body.data;
    await harness.as().post(`/api/v1/forms/${created.id}/publish`).send({}).expect(200);
    return created.public_id as string;
  };
  const submit = (publicId: string, ip: string) =>
    request(server()).post(`/api/public/forms/${publicId}/submissions`).set('x-forwarded-for', ip).send({ fld_email: 'someone@example.com' });
  const upload = (publicId: string, ip: string) =>
    request(server())
      .post(`/api/public/forms/${publicId}/uploads`)
      .set('x-forwarded-for', ip)
      .set('content-type', 'application/octet-stream')
      .set('x-file-name', 'cv.pdf')
      .set('x-file-type', 'application/pdf')
      .send(Buffer.from('%PDF-1.7 small'));
  const page = (publicId: string, ip: string) => request(server()).get(`/f/${publicId}`).set('x-forwarded-for', ip);

  const expectLimited = (res: request.Response) => {
    expect(res.status).toBe(429);
    expect(res.body.error).toMatchObject({ type: 'invalid_request', code: 'rate_limited', message: expect.any(String) });
    const retryAfter = Number(res.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
  };

  describe('public submissions', () => {
    it('per IP: over the limit is a 429 with Retry-After (on every form); another IP is unaffected', async () => {
      const [form, other] = [await publishedForm(), await publishedForm()];
      const ip = newIp();
      for (let i = 0; i < 3; i++) await submit(form, ip).expect(201);
      expectLimited(await submit(form, ip));
      await submit(form, newIp()).expect(201);
      // The per-IP count spans forms (it limits a client, wherever it sends).
      expectLimited(await submit(other, ip));
    });

    it('per IP for IPv6 means per /64: a fresh address in the same network is still limited', async () => {
      const form = await publishedForm();
      const network = `2001:db8:${randomInt(0, 0xffff).toString(16)}:${randomInt(0, 0xffff).toString(16)}`;
      for (let i = 1; i <= 3; i++) await submit(form, `${network}::${i}`).expect(201);
      expectLimited(await submit(form, `${network}::abcd`));
      await submit(form, `2001:db8:1:${randomInt(0, 0xffff).toString(16)}::1`).expect(201);
    });

    it('per form: over the limit is a 429 whatever the IP; another form is unaffected', async () => {
      const [form, other] = [await publishedForm(), await publishedForm()];
      for (let i = 0; i < 5; i++) await submit(form, newIp()).expect(201);
      expectLimited(await submit(form, newIp()));
      await submit(other, newIp()).expect(201);
    });

    it("one client flooding a form uses up its own allowance, not the form's", async () => {
      const form = await publishedForm();
      const flooder = newIp();
      const statuses = await Promise.all(Array.from({ length: 12 }, () => submit(form, flooder).then((res) => res.status)));
      expect(statuses.filter((status) => status === 201)).toHaveLength(3);
      expect(statuses.filter((status) => status === 429)).toHaveLength(9);
      await submit(form, newIp()).expect(201);
      await submit(form, newIp()).expect(201);
    });
  });

  describe('public uploads', () => {
    it('per IP and per form, each a 429 with Retry-After; other IPs and forms unaffected', async () => {
      const [form, other] = [await publishedForm(), await publishedForm()];
      const ip = newIp();
      for (let i = 0; i < 2; i++) await upload(form, ip).expect(201);
      expectLimited(await upload(form, ip));
      await upload(form, newIp()).expect(201);
      await upload(form, newIp()).expect(201);
      // Four uploads reached the form: now every IP is refused there, and the other form still takes them.
      expectLimited(await upload(form, newIp()));
      await upload(other, newIp()).expect(201);
    });
  });

  describe('hosted pages', () => {
    it('per IP: over the limit a page saying when to retry (429, Retry-After); another IP still gets the form', async () => {
      const form = await publishedForm();
      const ip = newIp();
      for (let i = 0; i < 4; i++) await page(form, ip).expect(200);
      const limited = await page(form, ip);
      expect(limited.status).toBe(429);
      expect(limited.headers['content-type']).toMatch(/^text\/html/);
      const retryAfter = Number(limited.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(limited.text).toContain(`Please wait ${retryAfter} seconds, then reload this page.`);
      await page(form, newIp()).expect(200);
    });

    it('in Chromium, the limited page reads as a page', async () => {
      const form = await publishedForm();
      const ip = newIp();
      const browser = await launchChromium();
      try {
        const tab = await browser.newPage({ extraHTTPHeaders: { 'x-forwarded-for': ip } });
        const url = `${await listenOnLoopback(api.app)}/f/${form}`;
        // The allowance is used up only now, right before the visit: starting Chromium can outlast the window's end.
        for (let i = 0; i < 4; i++) await page(form, ip).expect(200);
        const response = await tab.goto(url);
        expect(response?.status()).toBe(429);
        expect(await tab.locator('h1').textContent()).toBe('Please try again shortly');
        expect(await tab.locator('p').textContent()).toMatch(/^Too many pages were opened from your network/);
        if (process.env.SCREENSHOT_DIR) await tab.screenshot({ path: `${process.env.SCREENSHOT_DIR}/hosted-page-429.png` });
      } finally {
        await browser.close();
      }
    });
  });

  it('a client that is not a trusted proxy cannot pick its own IP with X-Forwarded-For', async () => {
    // Its own counters: every request of this app counts against 127.0.0.1, which other runs use too.
    const direct = await formsApi({ ...LIMITS, TRUST_PROXY: 'false', QUEUE_PREFIX: `tp${randomInt(1e9)}` });
    try {
      const form = await publishedForm(direct);
      const spoofed = () =>
        request(direct.app.getHttpServer())
          .post(`/api/public/forms/${form}/submissions`)
          .set('x-forwarded-for', newIp())
          .send({ fld_email: 'someone@example.com' });
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await spoofed()).status);
      // Four "different" forwarded addresses from one socket address share the per-IP budget of 3.
      expect(statuses).toEqual([201, 201, 201, 429]);
    } finally {
      await direct.close();
    }
  });
});
