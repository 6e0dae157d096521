import { parseStdioArgs } from './stdio-bridge';

describe('stdio bridge arguments', () => {
  it('builds the MCP URL with the selection and reads the key from the environment', () => {
    const options = parseStdioArgs(['--url', 'https://api.example.com', '--toolsets', 'reporting,broadcasts', '--read-only'], { POSTLINE_API_KEY: 'mrk_x' });
    expect(options.url.toString()).toBe('https://api.example.com/mcp?toolsets=reporting%2Cbroadcasts&read_only=true');
    expect(options.apiKey).toBe('mrk_x');
    expect(parseStdioArgs(['--url', 'http://127.0.0.1:3000'], {}).apiKey).toBeUndefined();
  });

  it('refuses plain HTTP beyond this machine, a missing URL and unknown flags', () => {
    expect(() => parseStdioArgs(['--url', 'http://api.example.com'], {})).toThrow(/https/);
    expect(() => parseStdioArgs([], {})).toThrow(/--url is required/);
    expect(() => parseStdioArgs(['--url', 'https://a.example', '--api-key', 'k'], {})).toThrow(/Unknown argument "--api-key"/);
  });
});
