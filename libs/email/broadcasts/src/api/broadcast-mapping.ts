import type { Broadcast, DeliveryConnection } from '@email/data-access';
import type { AudienceDefinition } from '@email/audience-engine';
import { BroadcastDto, BroadcastSummaryDto } from './broadcast.dto';

const iso = (date: Date | null) => date?.toISOString() ?? null;
const selfOf = (id: string) => `/v1/broadcasts/${id}`;

export function toBroadcastSummary(broadcast: Broadcast): BroadcastSummaryDto {
  return {
    self: selfOf(broadcast.id),
    id: broadcast.id,
    subject: broadcast.subject,
    preview_text: broadcast.preview_text,
    status: broadcast.status,
    scheduled_at: iso(broadcast.scheduled_at),
    completed_at: iso(broadcast.completed_at),
    recipient_count: broadcast.recipient_count,
    opened_count: broadcast.opened_count,
    clicked_count: broadcast.clicked_count,
    unsubscribed_count: broadcast.unsubscribed_count,
    bounced_count: broadcast.bounced_count,
    complained_count: broadcast.complained_count,
    created_at: broadcast.created_at.toISOString(),
    updated_at: broadcast.updated_at.toISOString(),
  };
}

/** The full record; the sender comes from the broadcast's connection (null when it has none or it was deleted). */
export function toBroadcastDto(broadcast: Broadcast, sender: Pick<DeliveryConnection, 'from_name' | 'from_email'> | null): BroadcastDto {
  const { self, id, subject, preview_text, status, scheduled_at, completed_at, created_at, updated_at, ...counts } = toBroadcastSummary(broadcast);
  return {
    self,
    id,
    subject,
    preview_text,
    body: broadcast.body,
    body_document: broadcast.body_document,
    status,
    scheduled_at,
    completed_at,
    connection_id: broadcast.connection_id,
    from_name: sender?.from_name ?? null,
    from_email: sender?.from_email ?? null,
    reply_to_email: broadcast.reply_to_email,
    audience_definition: broadcast.audience_definition as AudienceDefinition | null,
    track_opens: broadcast.track_opens,
    track_clicks: broadcast.track_clicks,
    utm_source: broadcast.utm_source,
    utm_medium: broadcast.utm_medium,
    utm_campaign: broadcast.utm_campaign,
    utm_term: broadcast.utm_term,
    utm_content: broadcast.utm_content,
    ...counts,
    created_at,
    updated_at,
  };
}
