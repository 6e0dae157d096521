import type { ScopeWords } from '@shared/browser-session';
import { canonicalScopes } from '@email/access';

const RESOURCES: Record<string, string> = {
  analytics: 'reports and analytics',
  live_actions: 'one-off actions such as test sends',
  subscribers: 'subscribers',
  segments: 'segments',
  tags: 'tags',
  forms: 'forms',
  form_submissions: 'form submissions',
  landing_pages: 'landing pages',
  landing_page_submissions: 'landing page submissions',
  broadcasts: 'broadcasts',
  sequences: 'sequences',
  magic_links: 'magic links',
  automations: 'automations',
  workspace: 'workspace settings',
  email_delivery_connections: 'email delivery connections',
  email_templates: 'email templates',
  custom_fields: 'custom fields',
  webhooks: 'webhook subscriptions',
};

const VERBS: Record<string, string> = {
  read: 'See',
  write: 'Create, change and delete',
  import: 'Import',
  export: 'Export',
};

export type { ScopeWords };

export function scopeWords(scopes: readonly string[]): ScopeWords[] {
  return canonicalScopes(scopes).map((scope) => {
    const [resource, action] = scope.split(':');
    const verb = VERBS[action] ?? action;
    const text = resource === 'broadcasts' && action === 'write' ? 'Create, schedule and send broadcasts' : `${verb} ${RESOURCES[resource] ?? resource}`;
    return { scope, text, changes: action !== 'read' };
  });
}
