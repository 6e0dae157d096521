import { DomainError } from '@shared/errors';
import { EmailErrorCode, EmailErrors } from '@email/contracts';

/**
 * A feature the API metadata and capabilities name that this server does not offer yet. Until it exists, its routes
 * answer 501 with `code` (not a 404), and the capabilities document lists it under `limitations`.
 */
export interface UnavailableFeature {
  code: EmailErrorCode;
  /** What people call it (the documentation's list of what is not offered yet). */
  title: string;
  /** Said both in the 501 body and in the capabilities limitation. */
  message: string;
  /** Routes of this server that belong to the feature (Nest path syntax). */
  paths: readonly string[];
  /** The contract operations the feature adds, with the scopes each needs. */
  operations: ReadonlyArray<{ operationId: string; requiredScopes: readonly string[] }>;
}

const WEBHOOK_SUBSCRIPTION = 'v1/webhook-subscriptions/:webhook_subscription_id';
const webhookWrite = ['live_actions:write', 'webhooks:write'];

export const UNAVAILABLE_FEATURES = [
  {
    code: 'mcp_not_available',
    title: 'MCP server',
    message: 'This server does not run an MCP endpoint yet. Call the REST operations the capabilities document lists instead.',
    paths: ['mcp', '.well-known/mcp/server-card.json'],
    operations: [],
  },
  {
    code: 'oauth_not_available',
    title: 'OAuth access tokens',
    message: 'This server does not issue OAuth access tokens yet, so it has no OAuth authorization server. Authenticate with a workspace API key.',
    paths: [
      '.well-known/oauth-authorization-server',
      '.well-known/oauth-protected-resource',
      '.well-known/oauth-protected-resource/mcp',
      '.well-known/openid-configuration',
      'oauth/authorize',
      'oauth/token',
      'oauth/revoke',
      'oauth/register',
    ],
    operations: [],
  },
  {
    code: 'webhook_subscriptions_not_available',
    title: 'Webhook subscriptions',
    message: 'Webhook subscriptions cannot be created or managed on this server yet, so no events are delivered. List records to find changes.',
    paths: ['v1/webhook-subscriptions', WEBHOOK_SUBSCRIPTION, `${WEBHOOK_SUBSCRIPTION}/rotate-secret`],
    operations: [
      { operationId: 'listWebhookSubscriptions', requiredScopes: ['webhooks:read'] },
      { operationId: 'createWebhookSubscription', requiredScopes: webhookWrite },
      { operationId: 'getWebhookSubscription', requiredScopes: ['webhooks:read'] },
      { operationId: 'updateWebhookSubscription', requiredScopes: webhookWrite },
      { operationId: 'deleteWebhookSubscription', requiredScopes: webhookWrite },
      { operationId: 'rotateWebhookSubscriptionSecret', requiredScopes: webhookWrite },
    ],
  },
] as const satisfies readonly UnavailableFeature[];

export type UnavailableFeatureCode = (typeof UNAVAILABLE_FEATURES)[number]['code'];

export function unavailableFeature(code: UnavailableFeatureCode): UnavailableFeature {
  return UNAVAILABLE_FEATURES.find((feature) => feature.code === code)!;
}

/** The 501 a route of a feature not offered yet answers. */
export function featureNotAvailable(code: UnavailableFeatureCode): DomainError {
  return EmailErrors.fail(code, unavailableFeature(code).message);
}
