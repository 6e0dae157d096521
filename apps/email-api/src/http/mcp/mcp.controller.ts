import { All, Controller, Get, Header, HttpCode, Inject, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { BearerStrategy, Public } from '@shared/auth';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { DomainError, SharedErrors } from '@shared/errors';
import { bearerChallenge, callsTools, POST_ONLY_ANSWER } from '@shared/mcp';
import { protectedResourceMetadata } from '@shared/oauth';
import { IpRequestLimit, mcpPublicLimit } from '@shared/rate-limit';
import { REDIS_CLIENT } from '@shared/redis';
import { EMAIL_SCOPES } from '@email/access';
import { EmailErrors } from '@email/contracts';
import { ConnectionsService } from '@email/oauth';
import { MCP_SELECTION_HEADERS, parseMcpSelection } from '@email/platform';
import { McpEndpoint } from './mcp-endpoint';

export const MCP_PATH = '/mcp';
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource/mcp';

/**
 * /mcp, the streamable HTTP MCP endpoint (stateless: POST only). initialize and tools/list need no credential and
 * are counted per client IP instead (MCP_PUBLIC_REQUESTS_PER_IP); a request carrying tools/call is authenticated
 * first, like any REST route, and refused with 401 and a WWW-Authenticate challenge naming the protected-resource
 * metadata (RFC 9728).
 */
@ApiExcludeController()
@Public()
@Controller()
export class McpController {
  private readonly resourceMetadataUrl: string;
  private readonly resourceMetadata: Record<string, unknown>;
  private readonly publicLimit: IpRequestLimit;

  constructor(
    private readonly endpoint: McpEndpoint,
    private readonly bearer: BearerStrategy,
    private readonly connections: ConnectionsService,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(REDIS_CLIENT) redis: Redis,
  ) {
    this.publicLimit = mcpPublicLimit(redis, config, 'email');
    this.resourceMetadataUrl = `${config.publicBaseUrl}${PROTECTED_RESOURCE_PATH}`;
    this.resourceMetadata = protectedResourceMetadata({
      resource: `${config.publicBaseUrl}${MCP_PATH}`,
      name: 'Postline email MCP server',
      authorizationServer: config.publicBaseUrl,
      scopes: EMAIL_SCOPES,
      documentationUrl: `${config.docsBaseUrl}/mcp`,
    });
  }

  @Get(PROTECTED_RESOURCE_PATH.slice(1))
  @Header('cache-control', 'public, max-age=300')
  protectedResource(): Record<string, unknown> {
    return this.resourceMetadata;
  }

  @All(MCP_PATH.slice(1))
  @HttpCode(200)
  async mcp(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    if (request.method !== 'POST') {
      await reply.code(405).header('allow', 'POST').send(POST_ONLY_ANSWER);
      return;
    }
    if (!callsTools(request.body)) await this.publicLimit.consume(request.ip);
    const query = request.query as Record<string, string | undefined>;
    const header = (name: string) => request.headers[name] as string | undefined;
    const { selection, problems } = parseMcpSelection({
      toolsets: query.toolsets ?? header(MCP_SELECTION_HEADERS.toolsets),
      operationIds: query.operation_ids ?? header(MCP_SELECTION_HEADERS.operationIds),
      readOnly: query.read_only ?? header(MCP_SELECTION_HEADERS.readOnly),
    });
    if (problems.length) throw SharedErrors.invalid('validation_failed', problems[0].message, problems[0].field);
    if (callsTools(request.body)) {
      try {
        const principal = await this.bearer.verifyAuthorization(request.ip, request.headers.authorization);
        // An API key used here is a connected app too: revoking that connection stops the key on /mcp only.
        if (principal.credentialType === 'workspace_api_key' && !(await this.connections.admitApiKeyOnMcp(principal)))
          throw EmailErrors.fail('credential_revoked', 'This API key was disconnected from the MCP server; it still works on the REST API.');
      } catch (error) {
        // The exception filter renders the error; the challenge tells the client where the resource metadata is.
        if (error instanceof DomainError && error.status === 401) {
          reply.header('www-authenticate', bearerChallenge(this.resourceMetadataUrl, Boolean(request.headers.authorization)));
        }
        throw error;
      }
    }
    const answer = await this.endpoint.handle({ url: request.url, headers: request.headers, body: request.body }, selection);
    await reply.code(answer.status).headers(answer.headers).send(answer.body);
  }
}
