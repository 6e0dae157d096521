import type { StdioBridgeSpec } from '@shared/mcp';

/** `postline-forms-mcp --url <forms-api origin>`: stdio to the forms-api's /api/mcp. */
export const FORMS_STDIO_BRIDGE: StdioBridgeSpec = { bin: 'postline-forms-mcp', mcpPath: '/api/mcp' };
