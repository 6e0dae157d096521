import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { RouteRequest, RouteResponse } from './route-request';

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

/** What runs a route in-process: Fastify's `inject` has this shape. */
export interface InjectTarget {
  inject(options: { method: string; url: string; headers: Record<string, string>; payload?: string }): Promise<{
    statusCode: number;
    headers: Record<string, string | string[] | number | undefined>;
    body: string;
  }>;
}

/**
 * Answers one MCP HTTP request with `server`, over a stateless streamable HTTP transport (JSON answers, no sessions):
 * the server is made for this request and closed after it, so replicas share nothing.
 */
export async function serveStatelessMcp(server: Server, request: McpHttpRequest, baseUrl: string): Promise<McpHttpResponse> {
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    const webRequest = new Request(new URL(request.url, baseUrl), { method: 'POST', headers });
    const response = await transport.handleRequest(webRequest, { parsedBody: request.body });
    const answerHeaders: Record<string, string> = {};
    response.headers.forEach((value, name) => (answerHeaders[name] = value));
    return { status: response.status, headers: answerHeaders, body: await response.text() };
  } finally {
    await server.close();
  }
}

/** Runs a REST route in-process (every hook, guard, pipe and rule of the route applies) and reads its JSON answer. */
export async function injectRoute(target: InjectTarget, route: RouteRequest): Promise<RouteResponse> {
  const response = await target.inject({
    method: route.method,
    url: route.url,
    headers: route.headers,
    ...(route.body !== undefined ? { payload: JSON.stringify(route.body) } : {}),
  });
  const headers = Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name, single(value)]));
  const text = response.body;
  return { status: response.statusCode, headers, body: text ? (JSON.parse(text) as unknown) : null };
}

/** Whether a JSON-RPC message (or batch) asks to call a tool: only those need a credential. */
export function callsTools(body: unknown): boolean {
  const messages = Array.isArray(body) ? (body as unknown[]) : [body];
  return messages.some((message) => (message as { method?: unknown } | null)?.method === 'tools/call');
}

/** The RFC 9728 / RFC 6750 challenge of a refused MCP request: where the protected-resource metadata is. */
export function bearerChallenge(resourceMetadataUrl: string, credentialSent: boolean): string {
  const challenge = `Bearer resource_metadata="${resourceMetadataUrl}"`;
  return credentialSent ? `${challenge}, error="invalid_token"` : challenge;
}

/** The answer to a GET (or anything but POST) on a stateless MCP endpoint. */
export const POST_ONLY_ANSWER = {
  jsonrpc: '2.0',
  error: { code: -32000, message: 'This MCP endpoint is stateless: send JSON-RPC messages with POST.' },
  id: null,
} as const;

export const single = (value: string | string[] | number | undefined): string | undefined =>
  value === undefined ? undefined : Array.isArray(value) ? value[0] : String(value);
