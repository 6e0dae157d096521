import type { FastifyReply } from 'fastify';
import { OAuthError } from './oauth-error';

/**
 * Runs a protocol step for an endpoint apps call themselves (register, token, revoke): never cached, callable from
 * any origin (no cookie is ever read there), and an OAuthError answered as RFC 6749 says (`{error,
 * error_description}`), not in the service's API error envelope.
 */
export async function sendOAuthAnswer(reply: FastifyReply, status: number, step: () => Promise<object>): Promise<FastifyReply> {
  reply.header('cache-control', 'no-store').header('pragma', 'no-cache').header('access-control-allow-origin', '*');
  try {
    return reply.code(status).send(await step());
  } catch (error) {
    if (error instanceof OAuthError) return reply.code(error.status).send(error.toJSON());
    throw error;
  }
}

/** The CORS preflight of those endpoints and of the metadata documents. */
export function sendOAuthPreflight(reply: FastifyReply): FastifyReply {
  return reply
    .code(204)
    .header('access-control-allow-origin', '*')
    .header('access-control-allow-methods', 'GET, POST, OPTIONS')
    .header('access-control-allow-headers', 'content-type, authorization, mcp-protocol-version')
    .header('access-control-max-age', '600')
    .send();
}
