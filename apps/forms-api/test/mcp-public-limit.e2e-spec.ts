import { describeMcpPublicLimit, MCP_PUBLIC_LIMIT_ENV } from '@shared/testing';
import { formsApi } from './helpers';

describeMcpPublicLimit('forms-api', async () => {
  const api = await formsApi(MCP_PUBLIC_LIMIT_ENV);
  return { app: api.app, path: '/api/mcp', key: api.main.key, tool: 'postline_list_workspaces', close: api.close };
});
