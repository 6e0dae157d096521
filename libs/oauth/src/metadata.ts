/** Where a service mounts the authorization server's endpoints (relative to its issuer origin). */
export interface OAuthEndpointPaths {
  authorize: string;
  token: string;
  register: string;
  revoke: string;
}

export const DEFAULT_OAUTH_PATHS: OAuthEndpointPaths = {
  authorize: '/oauth/authorize',
  token: '/oauth/token',
  register: '/oauth/register',
  revoke: '/oauth/revoke',
};

/** RFC 8414 authorization server metadata. */
export function authorizationServerMetadata(input: {
  issuer: string;
  scopes: readonly string[];
  paths?: OAuthEndpointPaths;
  documentationUrl?: string;
}): Record<string, unknown> {
  const paths = input.paths ?? DEFAULT_OAUTH_PATHS;
  return {
    issuer: input.issuer,
    authorization_endpoint: `${input.issuer}${paths.authorize}`,
    token_endpoint: `${input.issuer}${paths.token}`,
    registration_endpoint: `${input.issuer}${paths.register}`,
    revocation_endpoint: `${input.issuer}${paths.revoke}`,
    scopes_supported: [...input.scopes],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
    ...(input.documentationUrl ? { service_documentation: input.documentationUrl } : {}),
  };
}

/** RFC 9728 protected resource metadata naming the authorization server that issues its tokens. */
export function protectedResourceMetadata(input: {
  resource: string;
  name: string;
  authorizationServer: string;
  scopes: readonly string[];
  documentationUrl?: string;
}): Record<string, unknown> {
  return {
    resource: input.resource,
    resource_name: input.name,
    authorization_servers: [input.authorizationServer],
    bearer_methods_supported: ['header'],
    scopes_supported: [...input.scopes],
    ...(input.documentationUrl ? { resource_documentation: input.documentationUrl } : {}),
  };
}
