/**
 * The resource groups of the capabilities document, in published order. An operation belongs to the
 * group of the first path segment after `/v1` (setup sessions belong to delivery connections).
 * Platform operations (`/v1`, `/v1/capabilities`, `/v1/openapi.json`) are never listed.
 */
export interface ApiResourceGroup {
  key: string;
  name: string;
  description: string;
  /** First path segments after `/v1` whose operations belong here. */
  segments: readonly string[];
}

export const PLATFORM_SEGMENTS: readonly string[] = ['', 'capabilities', 'openapi.json'];

export const API_RESOURCE_GROUPS: readonly ApiResourceGroup[] = [
  {
    key: 'workspace',
    name: 'Workspace',
    description: 'The workspace the credential belongs to: its profile, mailing address and time zone.',
    segments: ['workspace'],
  },
  {
    key: 'sender_identities',
    name: 'Sender Identities',
    description: 'Enabled sender names and addresses that broadcasts and sequences can send from; no provider settings.',
    segments: ['sender-identities'],
  },
  {
    key: 'email_delivery_connections',
    name: 'Email Delivery Connections',
    description: 'Connections to email delivery providers, set up through a browser session so provider secrets never pass through the API.',
    segments: ['email-delivery-connections', 'email-delivery-connection-setup-sessions'],
  },
  {
    key: 'analytics',
    name: 'Analytics',
    description: 'Aggregate delivery and engagement reports over a bounded date range.',
    segments: ['analytics'],
  },
  {
    key: 'diagnostics',
    name: 'Diagnostics',
    description: 'Bounded, privacy-conscious insight into workflow runs, deliveries and subscriber activity.',
    segments: ['diagnostics'],
  },
  {
    key: 'subscribers',
    name: 'Subscribers',
    description: 'Subscriber profiles: list, upsert by email, update, change status, and manage tag and sequence membership.',
    segments: ['subscribers'],
  },
  {
    key: 'tags',
    name: 'Tags',
    description: 'The tag catalogue used to label, target and import subscribers.',
    segments: ['tags'],
  },
  {
    key: 'custom_fields',
    name: 'Custom Fields',
    description: 'Definitions of the custom fields subscribers carry, with their personalization tokens.',
    segments: ['custom-fields'],
  },
  {
    key: 'email_templates',
    name: 'Email Templates',
    description: 'Reusable email designs, with previews rendered for a saved subscriber.',
    segments: ['email-templates'],
  },
  {
    key: 'starting_points',
    name: 'Starting Points',
    description: 'Ready-made starting content for emails, forms and landing pages.',
    segments: ['starting-points'],
  },
  {
    key: 'forms',
    name: 'Forms',
    description: 'Signup forms and the submissions they collect.',
    segments: ['forms'],
  },
  {
    key: 'landing_pages',
    name: 'Landing Pages',
    description: 'Hosted landing pages and the submissions they collect.',
    segments: ['landing-pages'],
  },
  {
    key: 'sequences',
    name: 'Sequences',
    description: 'Timed series of emails that subscribers move through, with readiness checks, previews and tests.',
    segments: ['sequences'],
  },
  {
    key: 'automations',
    name: 'Automations',
    description: 'Event-driven workflows with draft, running and paused states, readiness checks, previews and tests.',
    segments: ['automations'],
  },
  {
    key: 'magic_links',
    name: 'Magic Links',
    description: 'Trackable links that apply tag or sequence actions when a subscriber clicks them.',
    segments: ['magic-links'],
  },
  {
    key: 'broadcasts',
    name: 'Broadcasts',
    description: 'One-off emails: drafts, tests, readiness checks, scheduling, sending, progress and cancellation.',
    segments: ['broadcasts'],
  },
  {
    key: 'segments',
    name: 'Segments',
    description: 'Saved audience definitions, and previews of unsaved ones.',
    segments: ['segments'],
  },
  {
    key: 'webhook_subscriptions',
    name: 'Webhook Subscriptions',
    description: 'Signed outbound webhooks that deliver workspace events to an HTTPS endpoint.',
    segments: ['webhook-subscriptions'],
  },
  {
    key: 'jobs',
    name: 'Import and Export Jobs',
    description: 'Asynchronous subscriber imports and exports, polled until they finish.',
    segments: ['jobs'],
  },
];

/** The first path segment after `/v1` (`''` for `/v1` itself), or undefined outside `/v1`. */
export function versionedSegment(path: string): string | undefined {
  const match = /^\/v1(?:\/([^/]*))?/.exec(path);
  if (!match || (path.length > 3 && path[3] !== '/')) return undefined;
  return match[1] ?? '';
}

export function isPlatformPath(path: string): boolean {
  const segment = versionedSegment(path);
  return segment !== undefined && PLATFORM_SEGMENTS.includes(segment) && path.split('/').length <= 3;
}

const BY_SEGMENT = new Map(API_RESOURCE_GROUPS.flatMap((group) => group.segments.map((segment) => [segment, group] as const)));

/**
 * The group an operation path belongs to. A path outside the catalogue gets a group named after its
 * segment, so an implemented operation is never silently hidden (a test keeps the catalogue complete).
 */
export function resourceGroupFor(path: string): ApiResourceGroup {
  const segment = versionedSegment(path) ?? path.split('/').filter(Boolean)[0] ?? '';
  const known = BY_SEGMENT.get(segment);
  if (known) return known;
  const words = segment.split(/[-_.]/).filter(Boolean);
  return {
    key: words.join('_'),
    name: words.map((w) => w[0].toUpperCase() + w.slice(1)).join(' '),
    description: `Operations under /v1/${segment}.`,
    segments: [segment],
  };
}
