import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import type { Principal } from '@shared/auth';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { injectRoute, InjectTarget, McpHttpRequest, McpHttpResponse, serveStatelessMcp } from '@shared/mcp';
import { buildFormsTools, createFormsMcpServer, FormsApiDocument, FormsMcpTool } from '@forms/mcp';
import { SchemaPack } from '../../schema-pack/schema-pack';
import { ExportsAsCaller } from '../exports/exports-as-caller';

/** The server version MCP clients see: the API version of the schema pack the tools are built from. */
const VERSION = 'v1';

/**
 * The MCP endpoint behind /api/mcp: a stateless streamable HTTP transport (JSON answers, no sessions) and a fresh
 * server per request. Tools run their /api/v1 route in-process through Fastify's inject, with the caller's credential.
 */
@Injectable()
export class FormsMcpEndpoint {
  private tools?: FormsMcpTool[];

  constructor(
    private readonly pack: SchemaPack,
    private readonly adapter: HttpAdapterHost,
    private readonly exports: ExportsAsCaller,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Built from the schema pack on first use. */
  get allTools(): readonly FormsMcpTool[] {
    return (this.tools ??= buildFormsTools(JSON.parse(this.pack.files().json) as FormsApiDocument));
  }

  /** `principal`: the verified caller of a request that calls tools (none for initialize and tools/list). */
  handle(request: McpHttpRequest, principal?: Principal): Promise<McpHttpResponse> {
    const fastify = this.adapter.httpAdapter.getInstance<FastifyInstance>() as unknown as InjectTarget;
    const server = createFormsMcpServer({
      tools: this.allTools,
      authorization: request.headers.authorization as string | undefined,
      invoke: (route) => injectRoute(fastify, route),
      newRequestId: () => `req_${randomUUID()}`,
      version: VERSION,
      ...(principal ? { exports: this.exports.portFor(principal) } : {}),
    });
    return serveStatelessMcp(server, request, this.config.formsPublicBaseUrl);
  }
}
