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

export const UNAVAILABLE_FEATURES = [
  {
    code: 'oauth_not_available',
    title: 'OAuth access tokens',
    message: 'This server does not issue OAuth access tokens yet, so it has no OAuth authorization server. Authenticate with a workspace API key.',
    paths: [
      '.well-known/oauth-authorization-server',
      '.well-known/oauth-protected-resource',
      '.well-known/openid-configuration',
      'oauth/authorize',
      'oauth/token',
      'oauth/revoke',
      'oauth/register',
    ],
    operations: [],
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
