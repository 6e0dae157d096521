/** The event names webhook subscriptions can receive. */
export const WEBHOOK_EVENTS = [
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

/** Wildcards a subscription may use instead of (or besides) exact names. */
export const WEBHOOK_EVENT_WILDCARDS = ['*', 'subscriber.*', 'form.*', 'landing_page.*', 'broadcast.*', 'automation.*'] as const;

/** Every valid `event_patterns` value: wildcards first, then the exact names. */
export const WEBHOOK_EVENT_PATTERNS = [...WEBHOOK_EVENT_WILDCARDS, ...WEBHOOK_EVENTS] as const;

/** How deliveries are signed (Standard Webhooks headers, HMAC-SHA256, `v1,` signatures). */
export const WEBHOOK_SIGNING = {
  algorithm: 'hmac-sha256',
  id_header: 'webhook-id',
  timestamp_header: 'webhook-timestamp',
  signature_header: 'webhook-signature',
  signature_prefix: 'v1',
} as const;
