import { describeMcpPublicLimit, MCP_PUBLIC_LIMIT_ENV } from '@shared/testing';
import { emailApi } from './helpers';

describeMcpPublicLimit('email-api', async () => {
  const api = await emailApi(MCP_PUBLIC_LIMIT_ENV);
  return { app: api.app, path: '/mcp', key: api.key, tool: 'discovery_get_capabilities', close: api.close };
});
