/** Webhook event names (the contract's nine) and the wildcard patterns subscriptions may use. */
export const EVENT_TYPES = [
  'subscriber.created',
  'subscriber.updated',
  'subscriber.status_changed',
  'form.submitted',
  'landing_page.submitted',
  'broadcast.state_changed',
  'automation.entered',
  'automation.step_executed',
  'automation.completed',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export const EVENT_WILDCARDS = ['*', 'subscriber.*', 'form.*', 'landing_page.*', 'broadcast.*', 'automation.*'] as const;

/** Every valid `event_patterns` value: wildcards first, then the event names. */
export const EVENT_PATTERNS = [...EVENT_WILDCARDS, ...EVENT_TYPES] as const;

/** How deliveries are signed (Standard Webhooks headers, HMAC-SHA256, `v1,` signatures). */
export const WEBHOOK_SIGNING = {
  algorithm: 'hmac-sha256',
  id_header: 'webhook-id',
  timestamp_header: 'webhook-timestamp',
  signature_header: 'webhook-signature',
  signature_prefix: 'v1',
} as const;
