import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { API_VERSION, ApiDescription, McpSelection } from '@email/platform';
import { buildEmailTools, createEmailMcpServer, EmailMcpTool, RouteRequest, RouteResponse } from '@email/mcp';

export interface McpHttpRequest {
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

export interface McpHttpResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

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

  async handle(request: McpHttpRequest, selection: McpSelection): Promise<McpHttpResponse> {
    const authorization = single(request.headers.authorization);
    const server = createEmailMcpServer({
      tools: this.allTools,
      selection,
      authorization,
      invoke: (route) => this.invoke(route),
      newRequestId: () => `req_${randomUUID()}`,
      version: API_VERSION,
    });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      const webRequest = new Request(new URL(request.url, this.config.publicBaseUrl), { method: 'POST', headers });
      const response = await transport.handleRequest(webRequest, { parsedBody: request.body });
      const answerHeaders: Record<string, string> = {};
      response.headers.forEach((value, name) => (answerHeaders[name] = value));
      return { status: response.status, headers: answerHeaders, body: await response.text() };
    } finally {
      await server.close();
    }
  }

  private async invoke(route: RouteRequest): Promise<RouteResponse> {
    const fastify = this.adapter.httpAdapter.getInstance<FastifyInstance>();
    const response = await fastify.inject({
      method: route.method as 'GET',
      url: route.url,
      headers: route.headers,
      ...(route.body !== undefined ? { payload: JSON.stringify(route.body) } : {}),
    });
    const text = response.body;
    return { status: response.statusCode, requestId: single(response.headers['x-request-id']), body: text ? (JSON.parse(text) as unknown) : null };
  }
}

const single = (value: string | string[] | number | undefined): string | undefined =>
  value === undefined ? undefined : Array.isArray(value) ? value[0] : String(value);
