/**
 * Open pixel and click redirect: a rendered email's own pixel and links, the events they record (with the machine-open
 * flag and the rollup), tampered, expired, foreign and re-pointed tokens (nothing recorded, never a redirect), HEAD
 * requests, tenant isolation, and a database outage (no "recorded" answer for an event that was not).
 */
import request from 'supertest';
import { EngagementRepository } from '@email/audience-engine';
import { EmailPrisma } from '@email/data-access';
import { clickPath, MessageTracking, openPixelPath, TrackingTokens, UnsubscribeTokens, unsubscribePath } from '@email/delivery';
import { compileEmail, fillTemplate, formatPostalAddress } from '@email/rendering';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { trustedWorkspaceId, WorkspaceId } from '@shared/core';
import { AccessService } from '@email/access';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createTestApp, createTestDatabase, SHORT_DEPENDENCY_TIMEOUTS, TcpProxy, TestDatabase } from '@shared/testing';
import { AppModule, EMAIL_HTTP_OPTIONS } from '../src/app.module';
import { emailApi, EmailApiHarness } from './helpers';

const HUMAN_UA = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15';
const SOURCE = { type: 'broadcast', id: 'brd_01HZX0000000000000000000DD' };
const LINKS = ['https://example.com/read?a=1&b=2', 'https://shop.example.com/p/100%25+cotton?x=a%20b#top'];
const DAY = 86_400_000;

describe('email-api: open pixel and click redirect', () => {
  let h: EmailApiHarness;
  let prisma: EmailPrisma;
  let tokens: TrackingTokens;
  let config: AppConfig;
  let ws: WorkspaceId;

  beforeAll(async () => {
    h = await emailApi();
    prisma = h.app.get(EmailPrisma);
    tokens = h.app.get(TrackingTokens);
    config = h.app.get<AppConfig>(APP_CONFIG);
    ws = trustedWorkspaceId(h.workspaceId);
  });
  afterAll(() => h?.close());

  const server = () => h.app.getHttpServer();
  const create = async (email: string, key = h.key) => (await h.as(key).post('/v1/subscribers').send({ email }).expect(201)).body.data as { id: string };
  const claimsOf = (subscriberId: string, workspaceId = ws, source = SOURCE) => ({ workspaceId, subscriberId, source });
  const pixelPath = (subscriberId: string, at = new Date(), workspaceId = ws) => openPixelPath(tokens.sign(claimsOf(subscriberId, workspaceId), at));
  const linkPath = (subscriberId: string, url: string, workspaceId = ws) =>
    clickPath(tokens.sign(claimsOf(subscriberId, workspaceId), new Date()), tokens.linkSignature(claimsOf(subscriberId, workspaceId), url), url);
  const events = (subscriberId: string) => prisma.emailEvent.findMany({ where: { subscriber_id: subscriberId }, orderBy: { id: 'asc' } });
  const rollup = (subscriberId: string) => prisma.subscriberEngagement.findUnique({ where: { subscriber_id: subscriberId } });
  const pixel = (path: string, userAgent = HUMAN_UA) =>
    request(server())
      .get(path)
      .set('user-agent', userAgent)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });

  it('the pixel answers a 43-byte transparent GIF that no cache keeps, and the open is in email_events when the answer arrives', async () => {
    const { id } = await create('opener@example.com');
    const res = await pixel(pixelPath(id)).expect(200);
    expect(res.headers['content-type']).toBe('image/gif');
    expect(res.headers['cache-control']).toMatch(/no-store/);
    expect(res.headers['content-length']).toBe('43');
    expect((res.body as Buffer).subarray(0, 6).toString('latin1')).toBe('GIF89a');
    // No waiting, no polling: the answer is the acknowledgement.
    const stored = await events(id);
    expect(stored).toEqual([
      expect.objectContaining({
        workspace_id: h.workspaceId,
        type: 'opened',
        source_type: 'broadcast',
        source_id: SOURCE.id,
        machine: false,
        machine_reason: null,
      }),
    ]);
    expect(await rollup(id)).toMatchObject({ workspace_id: h.workspaceId, opens_30d: 1, opens_90d: 1, last_machine_opened_at: null });
    expect((await rollup(id))?.last_opened_at).toEqual(stored[0].occurred_at);
  });

  it("flags machine opens as the classifier does: Apple's bare Mozilla/5.0, and an open within 10 s of the delivery", async () => {
    const apple = await create('apple@example.com');
    await pixel(pixelPath(apple.id), 'Mozilla/5.0').expect(200);
    expect(await events(apple.id)).toEqual([expect.objectContaining({ type: 'opened', machine: true, machine_reason: 'apple_mail_privacy' })]);
    expect(await rollup(apple.id)).toMatchObject({ opens_30d: 0, last_opened_at: null });
    expect((await rollup(apple.id))?.last_machine_opened_at).not.toBeNull();

    const fast = await create('fast@example.com');
    await h.app.get(EngagementRepository).record(ws, [{ subscriberId: fast.id, type: 'delivered', occurredAt: new Date(Date.now() - 2000) }]);
    await pixel(pixelPath(fast.id)).expect(200);
    expect((await events(fast.id)).map((e) => [e.type, e.machine, e.machine_reason])).toEqual([
      ['delivered', false, null],
      ['opened', true, 'opened_at_delivery'],
    ]);
  });

  it("a rendered email's own click links redirect to exactly their link and record a click; its pixel and footer work", async () => {
    const { id } = await create('reader@example.com');
    const template = await compileEmail({
      document: {
        type: 'doc',
        content: [
          { type: 'paragraph', content: [{ type: 'text', text: 'Read', marks: [{ type: 'link', attrs: { href: LINKS[0] } }] }] },
          { type: 'emailButton', attrs: { label: 'Shop', href: LINKS[1] } },
          { type: 'paragraph', content: [{ type: 'text', text: 'Mail us', marks: [{ type: 'link', attrs: { href: 'mailto:hi@example.com' } }] }] },
        ],
      },
    });
    const tracking = new MessageTracking(tokens, config.publicBaseUrl, {
      workspaceId: ws,
      source: SOURCE,
      links: template.links,
      trackOpens: true,
      trackClicks: true,
    });
    const unsubscribeUrl = `${config.publicBaseUrl}${unsubscribePath(h.app.get(UnsubscribeTokens).sign({ workspaceId: ws, subscriberId: id, source: SOURCE }))}`;
    const message = fillTemplate(
      template,
      { email: 'reader@example.com' },
      {
        ...tracking.forRecipient(id, new Date()),
        footer: { unsubscribeUrl, postalAddress: formatPostalAddress({ name: 'Acme', address: '1 Main St', city: 'Springfield', country: 'US' }) },
      },
    );

    const hrefs = [...message.html.matchAll(/href="([^"]*)"/g)].map((m) => m[1].replace(/&amp;/g, '&'));
    expect(hrefs.filter((href) => href.includes('/c/'))).toHaveLength(2);
    expect(hrefs).toContain('mailto:hi@example.com');
    expect(hrefs).toContain(unsubscribeUrl);
    expect(message.text).toContain(`Unsubscribe: ${unsubscribeUrl}\nAcme, 1 Main St, Springfield, US`);
    for (const [i, link] of LINKS.entries()) {
      const href = hrefs.find((candidate) => candidate.includes('/c/') && new URL(candidate).searchParams.get('u') === link)!;
      expect(message.text).toContain(href);
      const res = await request(server())
        .get(new URL(href).pathname + new URL(href).search)
        .set('user-agent', HUMAN_UA)
        .expect(302);
      expect(res.headers.location).toBe(new URL(LINKS[i]).href);
    }
    const pixelUrl = new URL(/<img src="([^"]*)" width="1" height="1"/.exec(message.html)![1]);
    await pixel(pixelUrl.pathname).expect(200);

    expect((await events(id)).map((e) => [e.type, e.source_type, e.source_id, e.machine])).toEqual([
      ['clicked', 'broadcast', SOURCE.id, false],
      ['clicked', 'broadcast', SOURCE.id, false],
      ['opened', 'broadcast', SOURCE.id, false],
    ]);
    expect(await rollup(id)).toMatchObject({ clicks_30d: 2, clicks_90d: 2, opens_30d: 1 });
  });

  it('a click link cannot be re-pointed: another URL, another link of the same message, or a signature from another message', async () => {
    const { id } = await create('repoint@example.com');
    const token = tokens.sign(claimsOf(id), new Date());
    const signature = tokens.linkSignature(claimsOf(id), LINKS[0]);
    const otherMessage = tokens.linkSignature(claimsOf(id, ws, { type: 'broadcast', id: 'brd_other' }), 'https://evil.example/');
    const attempts = [
      clickPath(token, signature, 'https://evil.example/'),
      clickPath(token, signature, LINKS[1]),
      clickPath(token, signature, `${LINKS[0]}&c=3`),
      clickPath(token, otherMessage, 'https://evil.example/'),
      `/c/${token}/${signature}`,
      `/c/${token}/${signature}?u=${encodeURIComponent(LINKS[0])}&u=${encodeURIComponent('https://evil.example/')}`,
    ];
    for (const path of attempts) {
      const res = await request(server()).get(path).expect(404);
      expect(res.headers.location).toBeUndefined();
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.text).toContain('This link is not valid');
      expect(res.text).not.toContain('evil');
    }
    expect(await events(id)).toEqual([]);
  });

  it('tampered, truncated, expired and foreign tokens: the pixel is still served, a click is a 404 page, and nothing is recorded', async () => {
    const { id } = await create('tampered@example.com');
    const token = tokens.sign(claimsOf(id), new Date());
    const [version, payload, mac] = token.split('.');
    const flipped = `${version}.${payload}.${mac.slice(0, -2)}${mac.endsWith('AA') ? 'BB' : 'AA'}`;
    const expired = tokens.sign(claimsOf(id), new Date(Date.now() - 731 * DAY));
    const foreign = new TrackingTokens('another-deployment-secret-of-32-characters!').sign(claimsOf(id), new Date());
    const unsubscribeKind = h.app.get(UnsubscribeTokens).sign({ workspaceId: ws, subscriberId: id, source: SOURCE });
    const signature = tokens.linkSignature(claimsOf(id), LINKS[0]);
    for (const bad of [flipped, `${version}.${payload}`, expired, foreign, unsubscribeKind, 'nonsense']) {
      const res = await pixel(openPixelPath(bad)).expect(200);
      expect(res.headers['content-type']).toBe('image/gif');
      const click = await request(server())
        .get(clickPath(bad, signature, LINKS[0]))
        .expect(404);
      expect(click.headers.location).toBeUndefined();
    }
    expect(await events(id)).toEqual([]);
    expect(await rollup(id)).toBeNull();
  });

  it('HEAD (scanners checking a link) answers the same and records nothing', async () => {
    const { id } = await create('head@example.com');
    const open = await request(server()).head(pixelPath(id)).expect(200);
    expect(open.headers['content-type']).toBe('image/gif');
    const click = await request(server()).head(linkPath(id, LINKS[0])).expect(302);
    expect(click.headers.location).toBe(LINKS[0]);
    expect(await events(id)).toEqual([]);
  });

  it("is tenant-isolated: events land in the token's workspace only, and a token naming another workspace's subscriber records nothing", async () => {
    const other = await h.newWorkspace('Other workspace');
    const otherWs = trustedWorkspaceId(other.workspace_id);
    const mine = await create('mine@example.com');
    const theirs = await create('theirs@example.com', other.api_key);

    await pixel(pixelPath(theirs.id, new Date(), otherWs)).expect(200);
    await request(server())
      .get(linkPath(theirs.id, LINKS[0], otherWs))
      .expect(302);
    expect((await events(theirs.id)).map((e) => [e.workspace_id, e.type])).toEqual([
      [other.workspace_id, 'opened'],
      [other.workspace_id, 'clicked'],
    ]);

    // Validly signed, but the subscriber is not that workspace's: nothing is written anywhere.
    await pixel(pixelPath(mine.id, new Date(), otherWs)).expect(200);
    await request(server())
      .get(linkPath(mine.id, LINKS[0], otherWs))
      .expect(302);
    await pixel(pixelPath(theirs.id)).expect(200);
    expect(await events(mine.id)).toEqual([]);
    expect(await events(theirs.id)).toHaveLength(2);
    expect(await prisma.emailEvent.count({ where: { workspace_id: h.workspaceId, subscriber_id: theirs.id } })).toBe(0);
  });

  it('needs no bearer: a request with a wrong Authorization header is served the same', async () => {
    const { id } = await create('nobearer@example.com');
    await request(server()).get(pixelPath(id)).set('authorization', 'Bearer not-a-key').expect(200);
    await request(server()).get(linkPath(id, LINKS[0])).set('authorization', 'Bearer not-a-key').expect(302);
    expect(await events(id)).toHaveLength(2);
  });
});

describe('email-api: tracking while the database is down', () => {
  let db: TestDatabase;
  let proxy: TcpProxy;
  let app: NestFastifyApplication;

  beforeAll(async () => {
    db = await createTestDatabase('email');
    proxy = await TcpProxy.start(Number(new URL(db.url).port || 5432));
    const url = new URL(db.url);
    url.port = String(proxy.port);
    app = await createTestApp(AppModule, { EMAIL_DATABASE_URL: url.toString(), ...SHORT_DEPENDENCY_TIMEOUTS }, EMAIL_HTTP_OPTIONS);
  });
  afterAll(async () => {
    await app?.close();
    await proxy?.close();
    await db?.drop();
  });

  it('answers no "recorded" for an event it could not write: pixel 503 (still the image), click 503 page with the link, never a 302', async () => {
    const { workspace_id, api_key } = await app.get(AccessService).createWorkspace('Outage');
    const ws = trustedWorkspaceId(workspace_id);
    const created = await request(app.getHttpServer()).post('/v1/subscribers').set('authorization', `Bearer ${api_key}`).send({ email: 'down@example.com' });
    const id = (created.body as { data: { id: string } }).data.id;
    const tokens = app.get(TrackingTokens);
    const claims = { workspaceId: ws, subscriberId: id, source: SOURCE };
    const token = tokens.sign(claims, new Date());
    const click = clickPath(token, tokens.linkSignature(claims, LINKS[0]), LINKS[0]);

    await proxy.refuse();
    const open = await request(app.getHttpServer()).get(openPixelPath(token)).expect(503);
    expect(open.headers['content-type']).toBe('image/gif');
    expect(open.headers['content-length']).toBe('43');
    const refused = await request(app.getHttpServer()).get(click).expect(503);
    expect(refused.headers.location).toBeUndefined();
    expect(refused.text).toContain('<a href="https://example.com/read?a=1&amp;b=2" rel="noreferrer">');

    await proxy.restore();
    await request(app.getHttpServer()).get(openPixelPath(token)).expect(200);
    await request(app.getHttpServer()).get(click).expect(302);
    const stored = await app.get(EmailPrisma).emailEvent.findMany({ where: { subscriber_id: id }, orderBy: { id: 'asc' } });
    expect(stored.map((event) => event.type)).toEqual(['opened', 'clicked']);
  });
});
