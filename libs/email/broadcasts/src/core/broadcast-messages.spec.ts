import fc from 'fast-check';
import { BUILT_IN_TOKEN_IDENTITIES, personalizationToken, tokenIdentity } from '@email/audience';
import { TrackingTokens, UnsubscribeTokens } from '@email/delivery';
import type { AppConfig } from '@shared/config';
import { IdGenerator, trustedWorkspaceId } from '@shared/core';
import { BroadcastMessages, MessageBroadcast, MessageContext, withUtm } from './broadcast-messages';

const SECRET = 'a-cursor-secret-of-at-least-32-characters!!';
const BASE = 'https://mail.example.com';
const WS = trustedWorkspaceId('wsp_01HZX0000000000000000000AA');
const ISSUED = new Date('2026-11-01T10:00:00Z');

const text = (value: string, href?: string) => ({ type: 'text', text: value, ...(href ? { marks: [{ type: 'link', attrs: { href } }] } : {}) });
const broadcast = (changes: Partial<MessageBroadcast> = {}): MessageBroadcast => ({
  id: 'brd_01HZX0000000000000000000DD',
  subject: 'Hello [Subscriber_Name, fallback="friend"]',
  preview_text: 'This week',
  body_document: {
    type: 'doc',
    content: [
      {
        type: 'paragraph',
        content: [
          text('Hi [Subscriber_Name, fallback="friend"], your colour is [Subscriber_Favorite_Color, fallback="none"]. '),
          text('Shop', 'https://shop.example.com/a?x=1'),
          text(' or '),
          text('write', 'mailto:hello@example.com'),
        ],
      },
    ],
  },
  content_version: 3,
  reply_to_email: null,
  track_opens: true,
  track_clicks: true,
  utm_source: null,
  utm_medium: null,
  utm_campaign: null,
  utm_term: null,
  utm_content: null,
  ...changes,
});

const context = (changes: Partial<MessageContext> = {}): MessageContext => ({
  workspace: { id: WS, name: 'Acme', address: '1 Main St', city: 'Springfield', state: 'IL', postal_code: '62701', country: 'US' },
  broadcast: broadcast(),
  sender: { email: 'news@acme.example', name: 'Acme News' },
  customFields: [
    { id: 'cf_color', label: 'Favorite color' },
    { id: 'cf_tags', label: 'Interests' },
  ],
  runId: 'brun_01HZX0000000000000000000EE',
  issuedAt: ISSUED,
  ...changes,
});

const recipient = { subscriberId: 'sub_01HZX0000000000000000000CC', email: 'ana@example.com', name: 'Ana <A&B>', customFields: { cf_color: 'green' } };

describe('BroadcastMessages', () => {
  const messages = new BroadcastMessages({ cursorSecret: SECRET, publicBaseUrl: `${BASE}/` } as AppConfig, new IdGenerator());
  const unsubscribes = new UnsubscribeTokens(SECRET);
  const tracking = new TrackingTokens(SECRET);

  it("fills the recipient's tokens, signs their click links and open pixel, and carries the footer and headers", async () => {
    const message = (await messages.prepare(context())).messageFor(recipient);
    expect(message).toMatchObject({
      messageId: 'brun_01HZX0000000000000000000EE.sub_01HZX0000000000000000000CC@acme.example',
      from: { address: 'news@acme.example', name: 'Acme News' },
      to: 'ana@example.com',
      subject: 'Hello Ana <A&B>',
      metadata: { broadcast_id: 'brd_01HZX0000000000000000000DD', run_id: 'brun_01HZX0000000000000000000EE' },
    });
    expect(message.html).toContain('Hi Ana &lt;A&amp;B&gt;, your colour is green.');
    expect(message.text).toContain('Hi Ana <A&B>, your colour is green.');

    // The web link goes through a click URL signed for this recipient; mailto: is left as it is.
    const click = /href="(https:\/\/mail\.example\.com\/c\/([^/"]+)\/[^"]+)"/.exec(message.html)!;
    expect(decodeURIComponent(click[1].replace(/&amp;/g, '&'))).toContain('u=https://shop.example.com/a?x=1');
    expect(tracking.verify(click[2], ISSUED)).toEqual({
      workspaceId: WS,
      subscriberId: recipient.subscriberId,
      source: { type: 'broadcast', id: 'brd_01HZX0000000000000000000DD' },
    });
    expect(message.html).toContain('href="mailto:hello@example.com"');
    expect(message.html).toMatch(/<img src="https:\/\/mail\.example\.com\/o\/t1\.[^"]+" width="1" height="1"/);

    // The footer's link and List-Unsubscribe name the same signed token; the postal address is shown.
    const header = message.headers['List-Unsubscribe'];
    const token = /^<https:\/\/mail\.example\.com\/u\/([^>]+)>$/.exec(header)![1];
    expect(unsubscribes.verify(token)).toEqual({
      workspaceId: WS,
      subscriberId: recipient.subscriberId,
      source: { type: 'broadcast', id: 'brd_01HZX0000000000000000000DD' },
    });
    expect(message.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    expect(message.html).toContain(`${BASE}/u/${token}`);
    expect(message.text).toContain(`Unsubscribe: ${BASE}/u/${token}`);
    expect(message.text).toContain('Acme, 1 Main St, Springfield, IL 62701, US');
    expect(message.headers['Reply-To']).toBeUndefined();
    expect(message.headers['X-Postline-Test']).toBeUndefined();
  });

  it('takes fallbacks for missing values, shows lists and checkboxes as text, and keeps values per recipient', async () => {
    const prepared = await messages.prepare(context({ customFields: [{ id: 'cf_color', label: 'Favorite color' }] }));
    const bare = prepared.messageFor({ subscriberId: 'sub_2', email: 'b@example.com', name: '', customFields: null });
    expect(bare.subject).toBe('Hello friend');
    expect(bare.text).toContain('Hi friend, your colour is none.');
    expect(prepared.messageFor({ subscriberId: 'sub_3', email: 'c@example.com', customFields: { cf_color: ['red', 'blue'] } }).text).toContain('is red, blue.');
    expect(prepared.messageFor({ subscriberId: 'sub_4', email: 'd@example.com', customFields: { cf_color: true } }).text).toContain('is Yes.');
    // The same prepared broadcast serves the next recipient with their own values and tokens.
    expect(prepared.messageFor(recipient).text).toContain('Hi Ana <A&B>, your colour is green.');
  });

  it('adds the UTM parameters to web links (not over ones the link has), with tracking off leaves links direct', async () => {
    const plain = broadcast({
      track_opens: false,
      track_clicks: false,
      utm_source: 'newsletter',
      utm_campaign: 'spring sale',
      reply_to_email: 'reply@acme.example',
    });
    const message = (await messages.prepare(context({ broadcast: plain }))).messageFor(recipient);
    expect(message.html).toContain('href="https://shop.example.com/a?x=1&amp;utm_source=newsletter&amp;utm_campaign=spring+sale"');
    expect(message.html).not.toContain('/o/t1.');
    expect(message.html).not.toContain('/c/t1.');
    expect(message.headers['Reply-To']).toBe('reply@acme.example');
    expect(withUtm('https://x.example/?utm_source=mine', { ...plain, utm_source: 'theirs' })).toBe(
      'https://x.example/?utm_source=mine&utm_campaign=spring+sale',
    );
    expect(withUtm('mailto:a@b.example', plain)).toBe('mailto:a@b.example');
  });

  it('marks a test: subject and header, fresh ids, no tracking, and an unsubscribe link that names nobody', async () => {
    const prepared = await messages.prepare(context({ test: true, runId: undefined }));
    const first = prepared.messageFor(recipient);
    const second = prepared.messageFor(recipient);
    expect(first.subject).toBe('[Test] Hello Ana <A&B>');
    expect(first.headers['X-Postline-Test']).toBe('broadcast');
    expect(first.metadata).toEqual({ broadcast_id: 'brd_01HZX0000000000000000000DD', test: 'true' });
    expect(first.messageId).toMatch(/^msg_[0-9A-Z]+@acme\.example$/);
    expect(second.messageId).not.toBe(first.messageId);
    expect(first.html).not.toContain('/c/t1.');
    expect(first.html).not.toContain('/o/t1.');
    const token = /\/u\/([^>]+)>$/.exec(first.headers['List-Unsubscribe'])![1];
    expect(unsubscribes.verify(token)?.subscriberId).not.toBe(recipient.subscriberId);
  });

  it('compiles a content once and renders the body with fallbacks, without footer or tracking', async () => {
    const body = await messages.renderBody(broadcast());
    expect(body).toContain('Hi friend, your colour is none.');
    expect(body).toContain('href="https://shop.example.com/a?x=1"');
    expect(body).not.toContain('/u/u1.');
    const first = await messages.compile(broadcast());
    expect(await messages.compile(broadcast({ content_version: 4 }))).toBe(first);
    expect(await messages.compile(broadcast({ subject: 'Changed' }))).not.toBe(first);
  });

  it("fills a custom field's own token whatever its label's script or punctuation", async () => {
    const labels = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 24 }).filter((label) => {
      const identity = tokenIdentity(label);
      return identity !== '' && !BUILT_IN_TOKEN_IDENTITIES.has(identity);
    });
    const fixed = ['Ünïcødé ñame', 'first-name', 'Cafe\u0301 au lait', '2nd choice', '会員 番号'];
    await fc.assert(
      fc.asyncProperty(labels, async (label) => {
        const prepared = await messages.prepare(
          context({ broadcast: broadcast({ subject: `Yours: ${personalizationToken(label)}.` }), customFields: [{ id: 'cf_any', label }] }),
        );
        expect(prepared.messageFor({ ...recipient, customFields: { cf_any: 'VALUE' } }).subject).toBe('Yours: VALUE.');
      }),
      { numRuns: 40, examples: fixed.map((label) => [label]) },
    );
  });

  it('refuses a document outside the contract, naming the path', async () => {
    await expect(messages.compile(broadcast({ body_document: { type: 'doc', content: [{ type: 'marquee' }] } }))).rejects.toMatchObject({
      code: 'validation_failed',
      details: { field: 'body_document.content[0].type' },
    });
  });
});
