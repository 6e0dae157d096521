/** What the broadcast e2e tests share: delivery connections saved as the setup page saves them, documents, subscribers. */
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { EmailPrisma } from '@email/data-access';
import { ConnectionSecrets } from '@email/delivery';

export const SINK_USER = 'mailer';
export const SINK_PASSWORD = 'sink-pass-Bq27-never-shown';

export interface SavedConnection {
  id: string;
  provider: string;
  config: Record<string, string | number | null>;
  secrets: Record<string, string>;
  enabled?: boolean;
  /** Seal the secrets for another connection id: they then cannot be opened for this one. */
  sealedFor?: string;
}

/** A connection row with its secrets sealed by the app's own ConnectionSecrets (as a completed setup session leaves it). */
export async function saveConnection(app: NestFastifyApplication, workspaceId: string, connection: SavedConnection): Promise<string> {
  const sealed = app.get(ConnectionSecrets, { strict: false }).seal(connection.sealedFor ?? connection.id, connection.secrets);
  const flags = Object.fromEntries(Object.keys(connection.secrets).map((key) => [`has_${key}`, true]));
  await app.get(EmailPrisma).deliveryConnection.create({
    data: {
      id: connection.id,
      workspace_id: workspaceId,
      name: `${connection.provider} ${connection.id}`,
      provider: connection.provider,
      from_email: 'news@postline.test',
      from_name: 'Postline News',
      enabled: connection.enabled ?? true,
      provider_config: { ...connection.config, ...flags },
      secrets: sealed,
    },
  });
  return connection.id;
}

/** A custom SMTP connection to a local SmtpSink (or to any port: a closed one makes an unreachable provider). */
export const smtpConnection = (id: string, port: number, password = SINK_PASSWORD): SavedConnection => ({
  id,
  provider: 'custom-smtp',
  config: { host: '127.0.0.1', port, secure_mode: 'none', username: SINK_USER },
  secrets: { password },
});

type Node = Record<string, unknown>;
const text = (value: string, href?: string): Node => ({ type: 'text', text: value, ...(href ? { marks: [{ type: 'link', attrs: { href } }] } : {}) });

/** A small document: a greeting with the name token and a custom-field token, and one link. */
export function document(link = 'https://shop.example.com/spring', extra: Node[] = []): Node {
  return {
    type: 'doc',
    content: [
      { type: 'heading', attrs: { level: 1 }, content: [text('Spring news')] },
      {
        type: 'paragraph',
        content: [text('Hi [Subscriber_Name, fallback="friend"], your plan is [Subscriber_Plan, fallback="free"]. '), text('Shop now', link)],
      },
      ...extra,
    ],
  };
}

/** A document whose HTML passes Gmail's ~102 KB clipping limit. */
export const largeDocument = (): Node =>
  document(
    undefined,
    Array.from({ length: 400 }, (_, i) => ({ type: 'paragraph', content: [text(`Paragraph ${i}: ${'lorem ipsum dolor sit amet '.repeat(12)}`)] })),
  );

export const byCountry = (country: string) => ({
  match: 'all',
  groups: [{ id: 'g', match: 'all', conditions: [{ id: 'c', field: 'country', operator: 'is', value: country }] }],
});
