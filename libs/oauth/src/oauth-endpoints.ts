import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendOAuthAnswer } from './http';
import { OAuthError } from './oauth-error';
import { OAuthServer } from './oauth-server';
import { RegistrationLimiter } from './registration-limiter';

type Params = Record<string, unknown> | undefined;

/** The endpoints an app calls itself (registration within its per-address limit, token, revocation), as JSON answers. */
export class OAuthEndpoints {
  constructor(
    private readonly oauth: OAuthServer,
    private readonly registrations: RegistrationLimiter,
  ) {}

  register(request: FastifyRequest, reply: FastifyReply, body: unknown): Promise<FastifyReply> {
    return sendOAuthAnswer(reply, 201, async () => {
      const retryAfter = await this.registrations.attempt(request.ip);
      if (retryAfter !== null) {
        reply.header('retry-after', String(retryAfter));
        throw new OAuthError('too_many_requests', 'Too many client registrations from this address; try again later.', 429);
      }
      return this.oauth.register(body);
    });
  }

  token(reply: FastifyReply, body: Params): Promise<FastifyReply> {
    return sendOAuthAnswer(reply, 200, () => this.oauth.token(body ?? {}));
  }

  revoke(reply: FastifyReply, body: Params): Promise<FastifyReply> {
    return sendOAuthAnswer(reply, 200, async () => {
      await this.oauth.revoke(body ?? {});
      return {};
    });
  }
}
