import { Body, Get, Header, HttpCode, Options, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthorizationFlow } from './authorization-flow';
import { sendOAuthPreflight } from './http';
import type { OAuthEndpoints } from './oauth-endpoints';

type Params = Record<string, unknown>;
/** The endpoints an app calls itself (never with cookies), which browser-based apps call across origins. */
const APP_ENDPOINTS = ['oauth/register', 'oauth/token', 'oauth/revoke'];
/** Clients that only speak OpenID Connect discovery read the same RFC 8414 document (no ID tokens are issued). */
const METADATA_PATHS = ['.well-known/oauth-authorization-server', '.well-known/openid-configuration'];

/**
 * The authorization server's routes, for a service's controller to extend (it adds `@Controller()` and `@Public()`
 * and sets the three fields): metadata, CORS preflight, registration, token, revocation and the authorization
 * endpoint with its consent decision.
 */
export abstract class OAuthRoutes {
  protected abstract readonly metadata: Record<string, unknown>;
  protected abstract readonly endpoints: OAuthEndpoints;
  protected abstract readonly flow: AuthorizationFlow<unknown>;

  @Get(METADATA_PATHS)
  @Header('cache-control', 'public, max-age=300')
  @Header('access-control-allow-origin', '*')
  serverMetadata(): Record<string, unknown> {
    return this.metadata;
  }

  /** CORS preflight: no cookie is ever read on these endpoints, so any origin may call them. */
  @Options([...APP_ENDPOINTS, ...METADATA_PATHS])
  preflight(@Res() reply: FastifyReply): FastifyReply {
    return sendOAuthPreflight(reply);
  }

  @Post('oauth/register')
  register(@Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.endpoints.register(request, reply, body);
  }

  @Post('oauth/token')
  token(@Body() body: Params | undefined, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.endpoints.token(reply, body);
  }

  @Post('oauth/revoke')
  @HttpCode(200)
  revoke(@Body() body: Params | undefined, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.endpoints.revoke(reply, body);
  }

  @Get('oauth/authorize')
  authorize(@Query() query: Params, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.flow.authorize(request, reply, query);
  }

  /** The consent form's decision, re-checked from its own copy of the request's parameters. */
  @Post('oauth/authorize')
  decide(@Body() form: Params | undefined, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.flow.decide(request, reply, form);
  }
}
