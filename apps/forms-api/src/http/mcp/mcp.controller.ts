import { Controller, Get, Header, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { BearerStrategy, Principal, Public } from '@shared/auth';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { DomainError } from '@shared/errors';
import { bearerChallenge, callsTools, POST_ONLY_ANSWER } from '@shared/mcp';
import { protectedResourceMetadata } from '@shared/oauth';
import { IpRequestLimit, mcpPublicLimit } from '@shared/rate-limit';
import { REDIS_CLIENT } from '@shared/redis';
import { FORMS_SCOPES } from '@forms/accounts';
import { FormsErrors } from '@forms/contracts';
import { ConnectionsService } from '@forms/oauth';
import { FormsMcpEndpoint } from './mcp-endpoint';

export const MCP_PATH = '/api/mcp';
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource/api/mcp';

/**
 * /api/mcp, the streamable HTTP MCP endpoint (stateless: POST only). initialize and tools/list need no credential and
 * are counted per client IP instead (MCP_PUBLIC_REQUESTS_PER_IP); a request carrying tools/call is authenticated
 * first, like any REST route, and refused with 401 and a WWW-Authenticate challenge naming the protected-resource
 * metadata (RFC 9728).
 */
@ApiExcludeController()
@Public()
@Controller()
export class FormsMcpController {
  private readonly resourceMetadataUrl: string;
  private readonly resourceMetadata: Record<string, unknown>;
  private readonly publicLimit: IpRequestLimit;

  constructor(
    private readonly endpoint: FormsMcpEndpoint,
    private readonly bearer: BearerStrategy,
    private readonly connections: ConnectionsService,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(REDIS_CLIENT) redis: Redis,
  ) {
    this.publicLimit = mcpPublicLimit(redis, config, 'forms');
    const origin = config.formsPublicBaseUrl;
    this.resourceMetadataUrl = `${origin}${PROTECTED_RESOURCE_PATH}`;
    this.resourceMetadata = protectedResourceMetadata({
      resource: `${origin}${MCP_PATH}`,
      name: 'Postline forms MCP server',
      authorizationServer: origin,
      scopes: FORMS_SCOPES,
      documentationUrl: `${origin}/llms.txt`,
    });
  }

  @Get(PROTECTED_RESOURCE_PATH.slice(1))
  @Header('cache-control', 'public, max-age=300')
  protectedResource(): Record<string, unknown> {
    return this.resourceMetadata;
  }

  @Get(MCP_PATH.slice(1))
  async get(@Res() reply: FastifyReply): Promise<void> {
    await reply.code(405).header('allow', 'POST').send(POST_ONLY_ANSWER);
  }

  @Post(MCP_PATH.slice(1))
  @HttpCode(200)
  async mcp(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    let principal: Principal | undefined;
    if (!callsTools(request.body)) await this.publicLimit.consume(request.ip);
    else {
      try {
        principal = await this.bearer.verifyAuthorization(request.ip, request.headers.authorization);
        // An API key used here is a connected app too: revoking that connection stops the key on /api/mcp only.
        if (principal.credentialType === 'api_key' && !(await this.connections.admitApiKeyOnMcp(principal)))
          throw FormsErrors.fail('mcp_connection_revoked', 'This API key was disconnected from the MCP server; it still works on /api/v1.');
      } catch (error) {
        // The exception filter renders the error; the challenge tells the client where the resource metadata is.
        if (error instanceof DomainError && error.status === 401) {
          reply.header('www-authenticate', bearerChallenge(this.resourceMetadataUrl, Boolean(request.headers.authorization)));
        }
        throw error;
      }
    }
    const answer = await this.endpoint.handle({ url: request.url, headers: request.headers, body: request.body }, principal);
    await reply.code(answer.status).headers(answer.headers).send(answer.body);
  }
}
