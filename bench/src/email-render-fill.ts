import { MessageTracking, TrackingTokens, UnsubscribeTokens, unsubscribePath } from '@email/delivery';
import { compileEmail, type CompiledTemplate, type EmailNode, fillTemplate, formatPostalAddress } from '@email/rendering';
import { trustedWorkspaceId } from '@shared/core';
import { Benchmark, emit, intOption, log, parseOptions, round } from './cli';
import { median } from './measure';

const USAGE = `email-render-fill [--recipients 100000] [--size-kb 20] [--rounds 3]
  Compiles one structured email document (headings, paragraphs with name/email/custom-field tokens and marks, links,
  a list, a quote, a two-column section with an image and a button), grown until its HTML is at least --size-kb, once
  with MJML; then fills it for --recipients distinct recipients (HTML, text and subject; every web link a signed
  click-tracking URL, the open pixel, and the footer with the recipient's signed unsubscribe link and the postal
  address), --rounds times. Prints the per-recipient fill cost, signing included (goal: at most 50 µs).`;

const GOAL_US = 50;

const text = (value: string, ...marks: NonNullable<EmailNode['marks']>): EmailNode => ({ type: 'text', text: value, ...(marks.length ? { marks } : {}) });

/** One repeatable block of content, about 2 KB of HTML. */
function block(i: number): EmailNode[] {
  return [
    { type: 'heading', attrs: { level: 2 }, content: [text(`Story ${i} for [Subscriber_Name, fallback="friend"]`)] },
    {
      type: 'paragraph',
      content: [
        text('Hi [Subscriber_Name, fallback="friend"], this week we have '),
        text('something new', { type: 'bold' }),
        text(' in your favourite colour, [Subscriber_Favorite_Color, fallback="blue"]. '),
        text('Read more', { type: 'link', attrs: { href: `https://example.com/stories/${i}?utm_source=newsletter` } }),
        text(' or write to us from [Subscriber_Email, fallback="your address"].'),
      ],
    },
    {
      type: 'bulletList',
      content: [1, 2, 3].map((n) => ({ type: 'listItem', content: [{ type: 'paragraph', content: [text(`Point ${n} of story ${i}`)] }] })),
    },
    { type: 'blockquote', content: [{ type: 'paragraph', content: [text('A reader wrote: "this is the best part of my week."', { type: 'italic' })] }] },
  ];
}

function document(blocks: number): EmailNode {
  return {
    type: 'doc',
    content: [
      ...Array.from({ length: blocks }, (_, i) => block(i)).flat(),
      {
        type: 'emailSection',
        attrs: { backgroundColor: '#f6f8fa', padding: 'normal' },
        content: [
          {
            type: 'emailSectionColumn',
            content: [
              { type: 'image', attrs: { src: 'https://images.example.com/cover.jpg', alt: 'Cover', href: 'https://example.com/cover', widthPercent: 50 } },
            ],
          },
          { type: 'emailSectionColumn', content: [{ type: 'emailButton', attrs: { label: 'Open the shop', href: 'https://example.com/shop' } }] },
        ],
      },
    ],
  };
}

const htmlBytes = (template: CompiledTemplate) => template.html.chunks.reduce((sum, chunk) => sum + Buffer.byteLength(chunk), 0);

async function run(args: string[]): Promise<void> {
  const o = parseOptions(args, { recipients: { type: 'string' }, 'size-kb': { type: 'string' }, rounds: { type: 'string' } });
  const recipients = intOption(o.recipients, 'recipients', 100_000, 1, 10_000_000);
  const sizeKb = intOption(o['size-kb'], 'size-kb', 20, 1, 1000);
  const rounds = intOption(o.rounds, 'rounds', 3, 1, 50);

  let blocks = 1;
  let compileMs: number;
  let template: CompiledTemplate;
  for (;;) {
    const started = performance.now();
    template = await compileEmail({ document: document(blocks), subject: 'News for [Subscriber_Name, fallback="friend"]', preheader: 'This week' });
    compileMs = performance.now() - started;
    if (htmlBytes(template) >= sizeKb * 1024) break;
    blocks++;
  }
  log(`template: ${blocks} blocks, ${htmlBytes(template)} bytes of HTML, ${template.html.slots.length} HTML slots, ${template.links.length} links`);

  const people = Array.from({ length: recipients }, (_, i) => ({
    name: i % 10 === 0 ? '' : `Person <${i}>`,
    email: `user${i}@example.com`,
    fields: { Favorite_Color: i % 3 === 0 ? 'green & gold' : 'red' },
  }));
  // What a send does per message once, then per recipient: sign the tracking and unsubscribe tokens, fill.
  const secret = 'a-bench-cursor-secret-of-32-characters!!';
  const workspaceId = trustedWorkspaceId('wsp_01HZX0000000000000000000AA');
  const source = { type: 'broadcast', id: 'brd_01HZX0000000000000000000DD' };
  const baseUrl = 'https://mail.example.com';
  const unsubscribes = new UnsubscribeTokens(secret);
  const tracking = new MessageTracking(new TrackingTokens(secret), baseUrl, {
    workspaceId,
    source,
    links: template.links,
    trackOpens: true,
    trackClicks: true,
  });
  const postalAddress = formatPostalAddress({ name: 'Acme', address: '1 Main St', city: 'Springfield', state: 'IL', postal_code: '62701', country: 'US' });
  const subscriberIds = Array.from({ length: recipients }, (_, i) => `sub_01HZX${String(i).padStart(21, '0')}`);
  const sentAt = new Date();

  const perRecipientUs: number[] = [];
  let sink = 0;
  for (let r = 0; r < rounds; r++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < recipients; i++) {
      const subscriberId = subscriberIds[i];
      const message = fillTemplate(template, people[i], {
        ...tracking.forRecipient(subscriberId, sentAt),
        footer: { unsubscribeUrl: baseUrl + unsubscribePath(unsubscribes.sign({ workspaceId, subscriberId, source })), postalAddress },
      });
      sink += message.html.length + message.text.length + message.subject.length;
    }
    const us = Number(process.hrtime.bigint() - started) / 1000 / recipients;
    perRecipientUs.push(us);
    log(`round ${r + 1}: ${round(us, 2)} µs per recipient`);
  }
  const result = median(perRecipientUs);
  emit({
    bench: 'email-render-fill',
    recipients,
    rounds,
    template_html_bytes: htmlBytes(template),
    html_slots: template.html.slots.length,
    text_slots: template.text.slots.length,
    links: template.links.length,
    compile_ms: round(compileMs, 1),
    fill_us_per_recipient: round(result, 2),
    fill_us_per_recipient_rounds: perRecipientUs.map((us) => round(us, 2)),
    goal_us: GOAL_US,
    meets_goal: result <= GOAL_US,
    output_bytes: sink,
  });
}

export const emailRenderFillBenchmark: Benchmark = {
  name: 'email-render-fill',
  summary: 'fill a compiled ~20 KB email template for 100,000 recipients: per-recipient cost (goal ≤ 50 µs)',
  usage: USAGE,
  run,
};
