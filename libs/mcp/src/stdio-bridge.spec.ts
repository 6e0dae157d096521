import { parseStdioArgs, StdioBridgeSpec } from './stdio-bridge';

const SPEC: StdioBridgeSpec = { bin: 'postline-x-mcp', mcpPath: '/api/mcp', valueFlags: ['toolsets'], switches: ['read-only'] };

describe('stdio bridge arguments', () => {
  it('builds the MCP URL with the selection and reads the key from the environment', () => {
    const options = parseStdioArgs(SPEC, ['--url', 'https://api.example.com', '--toolsets', 'reporting,broadcasts', '--read-only'], {
      POSTLINE_API_KEY: 'k_x',
    });
    expect(options.url.toString()).toBe('https://api.example.com/api/mcp?toolsets=reporting%2Cbroadcasts&read_only=true');
    expect(options.apiKey).toBe('k_x');
    expect(parseStdioArgs(SPEC, ['--url', 'http://127.0.0.1:3000'], {}).apiKey).toBeUndefined();
  });

  it('refuses plain HTTP beyond this machine, a missing URL and unknown flags', () => {
    expect(() => parseStdioArgs(SPEC, ['--url', 'http://api.example.com'], {})).toThrow(/https/);
    expect(() => parseStdioArgs(SPEC, [], {})).toThrow(/--url is required/);
    expect(() => parseStdioArgs(SPEC, ['--url', 'https://a.example', '--api-key', 'k'], {})).toThrow(/Unknown argument "--api-key"/);
    expect(() => parseStdioArgs({ bin: 'b', mcpPath: '/mcp' }, ['--url', 'https://a.example', '--read-only'], {})).toThrow(/Usage: b --url/);
  });
});
