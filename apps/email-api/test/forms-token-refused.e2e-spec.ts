import { randomBytes } from 'node:crypto';
import { emailApi, EmailApiHarness } from './helpers';

/**
 * Each service is its own authorization server: the forms service's OAuth access tokens (`pfa_…`), refresh tokens
 * (`pfr_…`) and API keys (`fsk_…`) are nothing to the email service, on /v1 and on /mcp alike.
 */
describe('email-api: credentials of the forms service are refused', () => {
  let h: EmailApiHarness;

  beforeAll(async () => {
    h = await emailApi();
  });
  afterAll(() => h?.close());

  it.each(['pfa_', 'pfr_', 'fsk_'])('refuses a %s token with 401 on /v1 and on an MCP tool call', async (prefix) => {
    const token = `${prefix}${randomBytes(32).toString('base64url')}`;
    const rest = await h.as(token).get('/v1/workspace');
    expect([rest.status, rest.body.error.type]).toEqual([401, 'authentication_error']);
    const mcp = await h
      .as(token)
      .post('/mcp')
      .set('accept', 'application/json, text/event-stream')
      .send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'workspace_get', arguments: {} } });
    expect(mcp.status).toBe(401);
    expect(mcp.headers['www-authenticate']).toMatch(/oauth-protected-resource\/mcp/);
  });
});
