/**
 * Per-recipient unsubscribe: the RFC 8058 one-click POST exactly as a mail client sends it (to the URL in the built
 * List-Unsubscribe header, form-encoded `List-Unsubscribe=One-Click`), the confirm → done page flow, idempotency,
 * tampered and foreign tokens (nothing recorded), and the status change with its outbox and engagement events.
 */
import request from 'supertest';
import { EmailPrisma } from '@email/data-access';
import { unsubscribeHeaders, UnsubscribeTokens } from '@email/delivery';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { trustedWorkspaceId } from '@shared/core';
import { emailApi, EmailApiHarness } from './helpers';

describe('email-api: unsubscribe links', () => {
  let h: EmailApiHarness;
  let prisma: EmailPrisma;
  let tokens: UnsubscribeTokens;
  let config: AppConfig;

  beforeAll(async () => {
    h = await emailApi();
    prisma = h.app.get(EmailPrisma);
    tokens = h.app.get(UnsubscribeTokens);
    config = h.app.get<AppConfig>(APP_CONFIG);
    await prisma.workspace.update({ where: { id: h.workspaceId }, data: { name: 'Acme <b>News</b> & "Co"' } });
  });
  afterAll(() => h?.close());

  const server = () => h.app.getHttpServer();
  const create = async (email: string, key = h.key) => (await h.as(key).post('/v1/subscribers').send({ email }).expect(201)).body.data as { id: string };
  const tokenFor = (subscriberId: string, workspaceId = h.workspaceId, source?: { type: string; id: string }) =>
    tokens.sign({ workspaceId: trustedWorkspaceId(workspaceId), subscriberId, ...(source ? { source } : {}) });
  /** The path of the URL a mail client takes from the List-Unsubscribe header (`<https://…/u/…>`). */
  const headerPath = (token: string) => {
    const headers = unsubscribeHeaders(config.publicBaseUrl, token);
    expect(headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    const url = new URL(/^<(.+)>$/.exec(headers['List-Unsubscribe'])![1]);
    expect(url.origin).toBe(new URL(config.publicBaseUrl).origin);
    return url.pathname;
  };
  const statusOf = async (id: string) => (await prisma.subscriber.findUniqueOrThrow({ where: { id } })).status;
  const outbox = async (id: string) =>
    (await prisma.outboxEvent.findMany({ where: { type: 'subscriber.status_changed' }, orderBy: { created_at: 'asc' } }))
      .filter((row) => (row.payload as { subscriber?: { id?: string } }).subscriber?.id === id)
      .map((row) => ({ workspace_id: row.workspace_id, payload: row.payload }));
  const engagement = (id: string) => prisma.emailEvent.findMany({ where: { subscriber_id: id } });
  const oneClick = (path: string) => request(server()).post(path).set('content-type', 'application/x-www-form-urlencoded').send('List-Unsubscribe=One-Click');

  it('the RFC 8058 one-click POST to the header URL unsubscribes, with the status event and one engagement event', async () => {
    const { id } = await create('one-click@example.com');
    const path = headerPath(tokenFor(id, h.workspaceId, { type: 'broadcast', id: 'brd_1' }));
    const res = await oneClick(path).expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('You are unsubscribed');
    expect(await statusOf(id)).toBe('Unsubscribed');
    expect(await outbox(id)).toEqual([{ workspace_id: h.workspaceId, payload: { subscriber: { id }, previous_status: 'Active', status: 'Unsubscribed' } }]);
    const events = await engagement(id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ workspace_id: h.workspaceId, type: 'unsubscribed', source_type: 'broadcast', source_id: 'brd_1' });
  });

  it('is idempotent: a second one-click (or the page) answers done and records nothing more', async () => {
    const { id } = await create('twice@example.com');
    const path = headerPath(tokenFor(id));
    await oneClick(path).expect(200);
    const again = await oneClick(path).expect(200);
    expect(again.text).toContain('You are unsubscribed');
    const page = await request(server()).get(path).expect(200);
    expect(page.text).toContain('You are unsubscribed');
    expect(page.text).not.toContain('<form');
    expect(await outbox(id)).toHaveLength(1);
    expect(await engagement(id)).toHaveLength(1);
    const events = await engagement(id);
    expect(events[0]).toMatchObject({ source_type: null, source_id: null });
  });

  it('GET shows the confirm page in the workspace name, escaped, masked and under a strict CSP; it changes nothing', async () => {
    const { id } = await create('jane.doe@example.com');
    const path = headerPath(tokenFor(id));
    const res = await request(server()).get(path).expect(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toMatch(
      /^default-src 'none'; style-src 'sha256-[^']+'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'$/,
    );
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.text).toContain('Unsubscribe j•••@e•••.com from Acme &lt;b&gt;News&lt;/b&gt; &amp; &quot;Co&quot;?');
    expect(res.text).not.toContain('<b>News');
    expect(res.text).not.toContain('jane.doe');
    expect(res.text).toMatch(/<form method="post">/);
    expect(res.text).not.toMatch(/<script|https?:\/\//);
    expect(await statusOf(id)).toBe('Active');
    expect(await engagement(id)).toHaveLength(0);
  });

  it('the page form (posting back to the same URL) unsubscribes and answers the done page', async () => {
    const { id } = await create('page-form@example.com');
    const path = headerPath(tokenFor(id));
    const res = await request(server()).post(path).type('form').send({ 'List-Unsubscribe': 'One-Click' }).expect(200);
    expect(res.text).toContain('p•••@e•••.com will no longer receive marketing emails from Acme');
    expect(await statusOf(id)).toBe('Unsubscribed');
    expect(await outbox(id)).toHaveLength(1);
    expect(await engagement(id)).toHaveLength(1);
  });

  it('a tampered, truncated or foreign token gets a harmless 404 page and records nothing', async () => {
    const { id } = await create('tampered@example.com');
    const token = tokenFor(id);
    const [version, payload, mac] = token.split('.');
    const foreign = new UnsubscribeTokens('another-deployment-secret-of-32-characters!').sign({
      workspaceId: trustedWorkspaceId(h.workspaceId),
      subscriberId: id,
    });
    const bad = [`${version}.${payload}.${mac.slice(0, -2)}${mac.endsWith('AA') ? 'BB' : 'AA'}`, `${version}.${payload}`, foreign, 'nonsense'];
    for (const t of bad) {
      const post = await oneClick(`/u/${t}`).expect(404);
      expect(post.text).toContain('This link is not valid');
      expect(post.text).not.toMatch(/tampered|signature|sub_|ws_/i);
      const get = await request(server()).get(`/u/${t}`).expect(404);
      expect(get.text).toContain('This link is not valid');
    }
    expect(await statusOf(id)).toBe('Active');
    expect(await outbox(id)).toEqual([]);
    expect(await engagement(id)).toEqual([]);
  });

  it('tenancy: a token only touches its own workspace subscriber', async () => {
    const other = await h.newWorkspace('Other workspace');
    const theirs = await create('theirs@example.com', other.api_key);
    // A token we signed for our workspace naming their subscriber id finds no one: the id is looked up in our workspace.
    const mixed = headerPath(tokenFor(theirs.id, h.workspaceId));
    await oneClick(mixed).expect(404);
    await request(server()).get(mixed).expect(404);
    expect(await statusOf(theirs.id)).toBe('Active');
    expect(await outbox(theirs.id)).toEqual([]);
    expect(await engagement(theirs.id)).toEqual([]);
    // Their own token works in their workspace, in their name.
    const own = headerPath(tokenFor(theirs.id, other.workspace_id));
    expect((await request(server()).get(own).expect(200)).text).toContain('from Other workspace?');
    await oneClick(own).expect(200);
    expect(await outbox(theirs.id)).toEqual([
      { workspace_id: other.workspace_id, payload: { subscriber: { id: theirs.id }, previous_status: 'Active', status: 'Unsubscribed' } },
    ]);
  });

  it('a deleted subscriber link is simply not valid any more', async () => {
    const { id } = await create('deleted@example.com');
    const path = headerPath(tokenFor(id));
    await h.as().delete(`/v1/subscribers/${id}`).expect(204);
    await oneClick(path).expect(404);
  });

  it('accepts a multipart one-click (RFC 8058 allows it), stays out of the OpenAPI document, and multipart elsewhere is still refused', async () => {
    const { id } = await create('multipart@example.com');
    await request(server())
      .post(headerPath(tokenFor(id)))
      .field('List-Unsubscribe', 'One-Click')
      .expect(200);
    expect(await statusOf(id)).toBe('Unsubscribed');
    const doc = (await h.as().get('/v1/openapi.json').expect(200)).body as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/u/'))).toEqual([]);
    await request(server()).post('/v1/tags').set('authorization', `Bearer ${h.key}`).field('name', 'x').expect(415);
  });
});
