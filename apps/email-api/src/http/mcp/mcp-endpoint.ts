import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { injectRoute, InjectTarget, McpHttpRequest, McpHttpResponse, serveStatelessMcp } from '@shared/mcp';
import { API_VERSION, ApiDescription, McpSelection } from '@email/platform';
import { buildEmailTools, createEmailMcpServer, EmailMcpTool } from '@email/mcp';

/**
 * The MCP endpoint behind /mcp: a stateless streamable HTTP transport (JSON answers, no sessions) and a fresh server
 * per request. Tools run their REST route in-process through Fastify's inject, with the caller's credential.
 */
@Injectable()
export class McpEndpoint {
  private tools?: EmailMcpTool[];

  constructor(
    private readonly description: ApiDescription,
    private readonly adapter: HttpAdapterHost,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Built from the app's OpenAPI document on first use. */
  get allTools(): readonly EmailMcpTool[] {
    return (this.tools ??= buildEmailTools(this.description.document));
  }

  handle(request: McpHttpRequest, selection: McpSelection): Promise<McpHttpResponse> {
    const fastify = this.adapter.httpAdapter.getInstance<FastifyInstance>() as unknown as InjectTarget;
    const server = createEmailMcpServer({
      tools: this.allTools,
      selection,
      authorization: request.headers.authorization as string | undefined,
      invoke: (route) => injectRoute(fastify, route),
      newRequestId: () => `req_${randomUUID()}`,
      version: API_VERSION,
    });
    return serveStatelessMcp(server, request, this.config.publicBaseUrl);
  }
}
