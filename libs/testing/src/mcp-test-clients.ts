import type { ValidateFunction } from 'ajv';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';

/** The part of an Ajv instance the clients use: the services' tools speak different JSON Schema drafts. */
export interface SchemaCompiler {
  compile(schema: object): ValidateFunction;
  errorsText(errors?: ValidateFunction['errors']): string;
}

/**
 * Real MCP clients over streamable HTTP for e2e suites: every tool's input and output schema is compiled when a client
 * lists it, every checked call's structuredContent is held to its tool's output schema, and close() closes them all.
 */
export class McpTestClients {
  private readonly clients: Client[] = [];
  private readonly outputSchemas = new Map<string, ValidateFunction>();

  constructor(
    private readonly ajv: SchemaCompiler,
    private readonly clientName = 'postline-e2e',
  ) {}

  /** A client connected to `url`; `bearer` undefined sends no credential. */
  async connect(url: string | URL, bearer?: string, headers: Record<string, string> = {}): Promise<Client> {
    // Loaded here, not with the module: most suites that use @shared/testing never speak MCP.
    const [{ Client }, { StreamableHTTPClientTransport }] = await Promise.all([
      import('@modelcontextprotocol/sdk/client/index.js'),
      import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    ]);
    const client = this.track(new Client({ name: this.clientName, version: '1.0.0' }));
    const requestHeaders = bearer ? { ...headers, authorization: `Bearer ${bearer}` } : headers;
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: requestHeaders } }));
    return client;
  }

  /** A client connected some other way, closed with the rest. */
  track(client: Client): Client {
    this.clients.push(client);
    return client;
  }

  async listTools(client: Client): Promise<Tool[]> {
    const { tools } = await client.listTools();
    for (const tool of tools) {
      if (this.outputSchemas.has(tool.name)) continue;
      this.ajv.compile(tool.inputSchema); // every input schema is valid JSON Schema too
      this.outputSchemas.set(tool.name, this.ajv.compile(tool.outputSchema!));
    }
    return tools;
  }

  /** Calls a tool listed before (as `listedAs` when the call uses an alias) and throws unless its result holds to the output schema. */
  async callChecked(client: Client, name: string, args: Record<string, unknown> = {}, listedAs = name): Promise<CallToolResult> {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    const validate = this.outputSchemas.get(listedAs);
    if (!validate) throw new Error(`${listedAs} was not listed by any client`);
    if (!validate(result.structuredContent)) throw new Error(`${name}: ${this.ajv.errorsText(validate.errors)}\n${JSON.stringify(result.structuredContent)}`);
    return result;
  }

  async close(): Promise<void> {
    await Promise.all(this.clients.splice(0).map((client) => client.close()));
  }
}
