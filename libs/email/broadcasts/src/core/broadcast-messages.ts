import { Inject, Injectable } from '@nestjs/common';
import type { Broadcast } from '@email/data-access';
import { personalizationToken } from '@email/audience';
import { MessageTracking, OutgoingMessage, TrackingTokens, UnsubscribeTokens, unsubscribeHeaders, unsubscribePath } from '@email/delivery';
import { CompiledTemplate, fillTemplate, formatPostalAddress, PostalAddressParts, TemplateCache, tokenKey } from '@email/rendering';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { IdGenerator, WorkspaceId } from '@shared/core';

/** What of a broadcast its messages are built from. */
export type MessageBroadcast = Pick<
  Broadcast,
  | 'id'
  | 'subject'
  | 'preview_text'
  | 'body_document'
  | 'content_version'
  | 'reply_to_email'
  | 'track_opens'
  | 'track_clicks'
  | 'utm_source'
  | 'utm_medium'
  | 'utm_campaign'
  | 'utm_term'
  | 'utm_content'
>;

/** Everything a broadcast's messages need besides the broadcast: who sends, the workspace's footer, the custom fields. */
export interface MessageContext {
  /** The workspace's id, name and postal address (the footer shows them). */
  workspace: PostalAddressParts & { id: WorkspaceId };
  broadcast: MessageBroadcast;
  /** The connection's sender. */
  sender: { email: string; name: string };
  /** The workspace's custom fields: their labels name the personalization tokens. */
  customFields: ReadonlyArray<{ id: string; label: string }>;
  /** The run these messages belong to (in their metadata and Message-ID); absent for a test. */
  runId?: string;
  /** A test email: subject and headers say so, nothing is tracked, and its unsubscribe link names nobody. */
  test?: boolean;
  /** When the messages are built (the tracking links' expiry counts from it). */
  issuedAt?: Date;
}

/** One recipient: a saved subscriber. `customFields` is the subscriber's `custom_fields` (values keyed by field id). */
export interface MessageRecipient {
  subscriberId: string;
  email: string;
  name?: string | null;
  customFields?: Readonly<Record<string, unknown>> | null;
}

export const TEST_SUBJECT_PREFIX = '[Test] ';
/** The subscriber id a test email's unsubscribe token names: no subscriber has it, so the link unsubscribes nobody. */
const TEST_UNSUBSCRIBE_SUBSCRIBER = 'test_email';
const UTM_KEYS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'] as const;
const WEB_LINK = /^https?:\/\//i;

/** A custom field value as text: a list's options joined, a checkbox as Yes/No. */
function fieldText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map(String).join(', ');
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return typeof value === 'object' ? null : String(value);
}

/** The link with the broadcast's UTM parameters added, where set and not already in the link. Only web links get them. */
export function withUtm(url: string, broadcast: Pick<MessageBroadcast, (typeof UTM_KEYS)[number]>): string {
  const utm = UTM_KEYS.filter((key) => broadcast[key]);
  if (!utm.length || !WEB_LINK.test(url)) return url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  const missing = utm.filter((key) => !parsed.searchParams.has(key));
  if (!missing.length) return url;
  for (const key of missing) parsed.searchParams.set(key, broadcast[key]!);
  return parsed.toString();
}

/** The domain of an address, for the Message-ID. */
const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1) || 'localhost';

/**
 * A broadcast compiled once, ready to build each recipient's message by concatenation and two HMACs (the tracking
 * token and the unsubscribe token). Build it with BroadcastMessages.prepare.
 */
export class PreparedBroadcast {
  private readonly tracking: MessageTracking | null;
  private readonly fieldKeys: ReadonlyArray<readonly [string, string]>;
  private readonly postalAddress: string;
  private readonly domain: string;
  private readonly baseHeaders: Record<string, string>;
  private readonly metadata: Record<string, string>;
  private readonly issuedAt: Date;

  constructor(
    /** The compiled content, its links with UTM parameters already added. */
    readonly template: CompiledTemplate,
    private readonly context: MessageContext,
    private readonly tokens: { tracking: TrackingTokens; unsubscribe: UnsubscribeTokens },
    private readonly publicBaseUrl: string,
    private readonly newId: () => string,
  ) {
    const { broadcast, workspace, test } = context;
    const source = { type: 'broadcast', id: broadcast.id };
    this.tracking =
      test || (!broadcast.track_opens && !broadcast.track_clicks)
        ? null
        : new MessageTracking(tokens.tracking, publicBaseUrl, {
            workspaceId: workspace.id,
            source,
            links: template.links,
            trackOpens: broadcast.track_opens,
            trackClicks: broadcast.track_clicks,
          });
    this.fieldKeys = context.customFields.flatMap((field) => {
      const key = tokenKey(personalizationToken(field.label));
      return key ? [[field.id, key] as const] : [];
    });
    this.postalAddress = formatPostalAddress(workspace);
    this.domain = domainOf(context.sender.email);
    this.baseHeaders = {
      ...(broadcast.reply_to_email ? { 'Reply-To': broadcast.reply_to_email } : {}),
      ...(test ? { 'X-Postline-Test': 'broadcast' } : {}),
    };
    this.metadata = { broadcast_id: broadcast.id, ...(context.runId ? { run_id: context.runId } : {}), ...(test ? { test: 'true' } : {}) };
    this.issuedAt = context.issuedAt ?? new Date();
  }

  /**
   * The message for one recipient. Its Message-ID is `<run id>.<subscriber id>@<sender domain>` for a run, so a
   * retried build names the same message; a test gets a fresh id.
   */
  messageFor(recipient: MessageRecipient): OutgoingMessage {
    const { workspace, broadcast, sender, runId, test } = this.context;
    const unsubscribeToken = this.tokens.unsubscribe.sign({
      workspaceId: workspace.id,
      subscriberId: test ? TEST_UNSUBSCRIBE_SUBSCRIBER : recipient.subscriberId,
      source: { type: 'broadcast', id: broadcast.id },
    });
    const fields: Record<string, string | null> = {};
    for (const [id, key] of this.fieldKeys) fields[key] = fieldText(recipient.customFields?.[id]);
    const filled = fillTemplate(
      this.template,
      { name: recipient.name, email: recipient.email, fields },
      {
        ...this.tracking?.forRecipient(recipient.subscriberId, this.issuedAt),
        footer: { unsubscribeUrl: this.publicBaseUrl + unsubscribePath(unsubscribeToken), postalAddress: this.postalAddress },
      },
    );
    const id = runId && !test ? `${runId}.${recipient.subscriberId}` : this.newId();
    return {
      messageId: `${id}@${this.domain}`,
      from: { address: sender.email, name: sender.name },
      to: recipient.email,
      subject: test ? TEST_SUBJECT_PREFIX + filled.subject : filled.subject,
      html: filled.html,
      text: filled.text,
      headers: { ...unsubscribeHeaders(this.publicBaseUrl, unsubscribeToken), ...this.baseHeaders },
      metadata: this.metadata,
    };
  }
}

/**
 * Builds a broadcast's messages: compiles its document once per content (cached by content hash, so once per
 * broadcast id and content version in practice), then fills each recipient's tokens, signed click links and open
 * pixel (when tracked), the UTM parameters, the footer with the recipient's signed unsubscribe link and the
 * workspace's postal address, and the List-Unsubscribe headers.
 */
@Injectable()
export class BroadcastMessages {
  private readonly cache = new TemplateCache(128);
  private readonly tokens: { tracking: TrackingTokens; unsubscribe: UnsubscribeTokens };
  private readonly publicBaseUrl: string;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly ids: IdGenerator,
  ) {
    this.tokens = { tracking: new TrackingTokens(config.cursorSecret), unsubscribe: new UnsubscribeTokens(config.cursorSecret) };
    this.publicBaseUrl = config.publicBaseUrl.replace(/\/+$/, '');
  }

  /** Compiles the broadcast's content; a document the contract refuses is a 400 naming its path under `body_document`. */
  async compile(broadcast: Pick<MessageBroadcast, 'subject' | 'preview_text' | 'body_document'>): Promise<CompiledTemplate> {
    return this.cache.compile({ document: broadcast.body_document, subject: broadcast.subject, preheader: broadcast.preview_text ?? undefined });
  }

  /** The broadcast's `body`: its HTML with every token at its fallback, without footer or tracking. */
  async renderBody(broadcast: Pick<MessageBroadcast, 'subject' | 'preview_text' | 'body_document'>): Promise<string> {
    return fillTemplate(await this.compile(broadcast), {}).html;
  }

  async prepare(context: MessageContext): Promise<PreparedBroadcast> {
    const compiled = await this.compile(context.broadcast);
    const template: CompiledTemplate = { ...compiled, links: compiled.links.map((url) => withUtm(url, context.broadcast)) };
    return new PreparedBroadcast(template, context, this.tokens, this.publicBaseUrl, () => this.ids.newId('msg'));
  }
}
