import type { StdioBridgeSpec } from '@shared/mcp';

/** `postline-email-mcp --url <email-api origin> [--toolsets a,b] [--read-only]`: stdio to the email-api's /mcp. */
export const EMAIL_STDIO_BRIDGE: StdioBridgeSpec = { bin: 'postline-email-mcp', mcpPath: '/mcp', valueFlags: ['toolsets'], switches: ['read-only'] };
