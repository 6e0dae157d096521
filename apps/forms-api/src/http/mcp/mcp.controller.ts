import { Controller, Get, Header, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { BearerStrategy, Public } from '@shared/auth';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { DomainError } from '@shared/errors';
import { bearerChallenge, callsTools, POST_ONLY_ANSWER } from '@shared/mcp';
import { FORMS_SCOPES } from '@forms/accounts';
import { FormsMcpEndpoint } from './mcp-endpoint';

export const MCP_PATH = '/api/mcp';
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource/api/mcp';

/**
 * /api/mcp, the streamable HTTP MCP endpoint (stateless: POST only). initialize and tools/list need no credential; a
 * request carrying tools/call is authenticated first, like any REST route, and refused with 401 and a
 * WWW-Authenticate challenge naming the protected-resource metadata (RFC 9728).
 */
@ApiExcludeController()
@Public()
@Controller()
export class FormsMcpController {
  private readonly resourceMetadataUrl: string;
  private readonly resourceMetadata: Record<string, unknown>;

  constructor(
    private readonly endpoint: FormsMcpEndpoint,
    private readonly bearer: BearerStrategy,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    const origin = config.formsPublicBaseUrl;
    this.resourceMetadataUrl = `${origin}${PROTECTED_RESOURCE_PATH}`;
    // This service is its own authorization server; until its OAuth endpoints exist, API keys are the credential.
    this.resourceMetadata = {
      resource: `${origin}${MCP_PATH}`,
      resource_name: 'Postline forms MCP server',
      authorization_servers: [origin],
      bearer_methods_supported: ['header'],
      scopes_supported: [...FORMS_SCOPES],
      resource_documentation: `${origin}/llms.txt`,
    };
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
    if (callsTools(request.body)) {
      try {
        await this.bearer.verifyAuthorization(request.ip, request.headers.authorization);
      } catch (error) {
        // The exception filter renders the error; the challenge tells the client where the resource metadata is.
        if (error instanceof DomainError && error.status === 401) {
          reply.header('www-authenticate', bearerChallenge(this.resourceMetadataUrl, Boolean(request.headers.authorization)));
        }
        throw error;
      }
    }
    const answer = await this.endpoint.handle({ url: request.url, headers: request.headers, body: request.body });
    await reply.code(answer.status).headers(answer.headers).send(answer.body);
  }
}
