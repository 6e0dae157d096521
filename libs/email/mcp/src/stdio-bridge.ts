import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

/** The environment variable the stdio bridge reads the API key from (never a flag: flags show in process lists). */
export const API_KEY_VARIABLE = 'POSTLINE_API_KEY';

export interface StdioBridgeOptions {
  /** The MCP URL of an email-api, with any toolsets/read_only selection in its query. */
  url: URL;
  apiKey: string | undefined;
}

const USAGE = `Usage: postline-email-mcp --url <email-api origin> [--toolsets a,b] [--read-only]
The API key is read from ${API_KEY_VARIABLE}.`;

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Reads the flags; plain HTTP only to this machine, since the key travels with every call. */
export function parseStdioArgs(argv: readonly string[], env: NodeJS.ProcessEnv): StdioBridgeOptions {
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--read-only') flags.set('read_only', 'true');
    else if (arg === '--url' || arg === '--toolsets') flags.set(arg.slice(2), argv[++i] ?? '');
    else throw new Error(`Unknown argument "${arg}".\n${USAGE}`);
  }
  const origin = flags.get('url');
  if (!origin) throw new Error(`--url is required.\n${USAGE}`);
  const url = new URL('/mcp', origin);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname))) {
    throw new Error(`--url must be https (plain http only for localhost): ${origin}`);
  }
  if (flags.has('toolsets')) url.searchParams.set('toolsets', flags.get('toolsets')!);
  if (flags.has('read_only')) url.searchParams.set('read_only', 'true');
  return { url, apiKey: env[API_KEY_VARIABLE] || undefined };
}

/**
 * MCP over stdio for local clients: a server on `local` whose tools are those of the email-api's /mcp endpoint,
 * listed and called there over streamable HTTP with the API key. Every rule stays on the server.
 */
export async function runStdioBridge(options: StdioBridgeOptions, local: Transport): Promise<{ close(): Promise<void> }> {
  const remote = new Client({ name: 'postline-email-mcp-stdio', version: '1.0.0' });
  const headers: Record<string, string> = options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {};
  await remote.connect(new StreamableHTTPClientTransport(options.url, { requestInit: { headers } }));
  const info = remote.getServerVersion() ?? { name: 'postline-email', version: '1.0.0' };
  const server = new Server(info, { capabilities: { tools: {} }, instructions: remote.getInstructions() });
  server.setRequestHandler(ListToolsRequestSchema, (request) => remote.listTools(request.params));
  server.setRequestHandler(CallToolRequestSchema, (request) => remote.callTool(request.params));
  await server.connect(local);
  return {
    close: async () => {
      await server.close();
      await remote.close();
    },
  };
}
