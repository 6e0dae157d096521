/** The 33 email API scopes, in the canonical order every scope list is emitted in. */
export const EMAIL_SCOPES = [
  'analytics:read',
  'live_actions:write',
  'subscribers:read',
  'subscribers:write',
  'subscribers:import',
  'subscribers:export',
  'segments:read',
  'segments:write',
  'tags:read',
  'tags:write',
  'forms:read',
  'forms:write',
  'form_submissions:read',
  'landing_pages:read',
  'landing_pages:write',
  'landing_page_submissions:read',
  'broadcasts:read',
  'broadcasts:write',
  'sequences:read',
  'sequences:write',
  'magic_links:read',
  'magic_links:write',
  'automations:read',
  'automations:write',
  'workspace:read',
  'email_delivery_connections:read',
  'email_delivery_connections:write',
  'email_templates:read',
  'email_templates:write',
  'custom_fields:read',
  'custom_fields:write',
  'webhooks:read',
  'webhooks:write',
] as const;

export type EmailScope = (typeof EMAIL_SCOPES)[number];

const ORDER = new Map<string, number>(EMAIL_SCOPES.map((scope, index) => [scope, index]));

export function isEmailScope(value: string): value is EmailScope {
  return ORDER.has(value);
}

/** De-duplicates and sorts scopes into canonical order (unknown values last, alphabetically). */
export function canonicalScopes(scopes: Iterable<string>): string[] {
  return [...new Set(scopes)].sort((a, b) => (ORDER.get(a) ?? 1000) - (ORDER.get(b) ?? 1000) || a.localeCompare(b));
}

const READS = EMAIL_SCOPES.filter((s) => s.endsWith(':read'));

/** Work profiles: named scope bundles (also the MCP toolsets). Default: full_email_marketing_access. */
export const WORK_PROFILES: Record<string, readonly EmailScope[]> = {
  full_email_marketing_access: EMAIL_SCOPES,
  reporting: READS.filter((s) => s !== 'webhooks:read'),
  subscriber_management: [
    'live_actions:write',
    'subscribers:read',
    'subscribers:write',
    'segments:read',
    'segments:write',
    'tags:read',
    'tags:write',
    'sequences:read',
    'workspace:read',
    'custom_fields:read',
    'custom_fields:write',
  ],
  content_and_capture: [
    'live_actions:write',
    'subscribers:read',
    'segments:read',
    'segments:write',
    'tags:read',
    'tags:write',
    'forms:read',
    'forms:write',
    'form_submissions:read',
    'landing_pages:read',
    'landing_pages:write',
    'landing_page_submissions:read',
    'magic_links:read',
    'magic_links:write',
    'workspace:read',
    'email_templates:read',
    'email_templates:write',
    'custom_fields:read',
    'custom_fields:write',
  ],
  broadcasts: [
    'analytics:read',
    'live_actions:write',
    'subscribers:read',
    'segments:read',
    'segments:write',
    'tags:read',
    'broadcasts:read',
    'broadcasts:write',
    'workspace:read',
    'email_delivery_connections:read',
    'email_templates:read',
    'custom_fields:read',
  ],
  sequences: [
    'analytics:read',
    'live_actions:write',
    'subscribers:read',
    'subscribers:write',
    'tags:read',
    'sequences:read',
    'sequences:write',
    'workspace:read',
    'email_delivery_connections:read',
    'email_templates:read',
    'custom_fields:read',
  ],
  automations: [
    'analytics:read',
    'live_actions:write',
    'subscribers:read',
    'tags:read',
    'automations:read',
    'automations:write',
    'workspace:read',
    'email_delivery_connections:read',
    'email_templates:read',
    'custom_fields:read',
  ],
  email_delivery_setup: ['live_actions:write', 'workspace:read', 'email_delivery_connections:read', 'email_delivery_connections:write'],
  subscriber_import_export: [
    'live_actions:write',
    'subscribers:read',
    'subscribers:import',
    'subscribers:export',
    'tags:read',
    'workspace:read',
    'custom_fields:read',
  ],
  outbound_webhooks: ['live_actions:write', 'workspace:read', 'webhooks:read', 'webhooks:write'],
};

/** Profiles holding every one of `scopes`, narrowest first. */
export function profilesCovering(scopes: readonly string[]): string[] {
  return Object.entries(WORK_PROFILES)
    .filter(([, granted]) => scopes.every((s) => (granted as readonly string[]).includes(s)))
    .sort(([, a], [, b]) => a.length - b.length)
    .map(([key]) => key);
}
