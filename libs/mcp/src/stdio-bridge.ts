import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

/** The environment variable the stdio bridge reads the API key from (never a flag: flags show in process lists). */
export const API_KEY_VARIABLE = 'POSTLINE_API_KEY';

/** What one service's bridge bin is: its name, the MCP path on the service's origin, and the flags it passes on. */
export interface StdioBridgeSpec {
  bin: string;
  mcpPath: string;
  /** `--name value` flags, sent as the query parameter `name` (dashes as underscores). */
  valueFlags?: readonly string[];
  /** `--name` switches, sent as `name=true`. */
  switches?: readonly string[];
}

export interface StdioBridgeOptions {
  /** The service's MCP URL, with the selection flags in its query. */
  url: URL;
  apiKey: string | undefined;
  bin: string;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const queryName = (flag: string) => flag.replace(/-/g, '_');

function usage(spec: StdioBridgeSpec): string {
  const flags = [...(spec.valueFlags ?? []).map((flag) => `[--${flag} <value>]`), ...(spec.switches ?? []).map((flag) => `[--${flag}]`)];
  return `Usage: ${spec.bin} --url <service origin>${flags.length ? ` ${flags.join(' ')}` : ''}\nThe API key is read from ${API_KEY_VARIABLE}.`;
}

/** Reads the flags; plain HTTP only to this machine, since the key travels with every call. */
export function parseStdioArgs(spec: StdioBridgeSpec, argv: readonly string[], env: NodeJS.ProcessEnv): StdioBridgeOptions {
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i].startsWith('--') ? argv[i].slice(2) : '';
    if (spec.switches?.includes(name)) flags.set(queryName(name), 'true');
    else if (name === 'url' || spec.valueFlags?.includes(name)) flags.set(queryName(name), argv[++i] ?? '');
    else throw new Error(`Unknown argument "${argv[i]}".\n${usage(spec)}`);
  }
  const origin = flags.get('url');
  if (!origin) throw new Error(`--url is required.\n${usage(spec)}`);
  flags.delete('url');
  const url = new URL(spec.mcpPath, origin);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname))) {
    throw new Error(`--url must be https (plain http only for localhost): ${origin}`);
  }
  for (const [name, value] of flags) url.searchParams.set(name, value);
  return { url, apiKey: env[API_KEY_VARIABLE] || undefined, bin: spec.bin };
}

/**
 * MCP over stdio for local clients: a server on `local` whose tools are those of the service's MCP endpoint, listed
 * and called there over streamable HTTP with the API key. Every rule stays on the server.
 */
export async function runStdioBridge(options: StdioBridgeOptions, local: Transport): Promise<{ close(): Promise<void> }> {
  const remote = new Client({ name: `${options.bin}-stdio`, version: '1.0.0' });
  const headers: Record<string, string> = options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {};
  await remote.connect(new StreamableHTTPClientTransport(options.url, { requestInit: { headers } }));
  const info = remote.getServerVersion() ?? { name: options.bin, version: '1.0.0' };
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

/** The body of a bridge bin: stdout carries the protocol, so anything for a person goes to stderr. */
export function runStdioBin(spec: StdioBridgeSpec, local: Transport): void {
  Promise.resolve()
    .then(() => runStdioBridge(parseStdioArgs(spec, process.argv.slice(2), process.env), local))
    .catch((error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    });
}
