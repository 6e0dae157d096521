import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { oauthTestClient, OAuthTokens } from '@shared/testing';

export { cookieOf, csrfOf, hiddenFields, pkce } from '@shared/testing';
export type Tokens = OAuthTokens;

export const PASSWORD = 'correct horse battery staple';

/** Plain-HTTP steps of the forms service's browser and OAuth flows, against a listening forms-api. */
export function oauthClient(origin: string) {
  const shared = oauthTestClient(origin);

  const signIn = (email: string, password = PASSWORD) => shared.signIn(email, password);
  const register = (callback: string, scope: string, name = 'Claude Desktop') => shared.register(callback, scope, { client_name: name });

  /** Registered, signed in, approved and exchanged: a fresh token pair for the owner. */
  const tokensFor = async (email: string, callback: string, scope: string, name?: string): Promise<Tokens & { clientId: string }> => {
    const clientId = await register(callback, scope, name);
    return { ...(await shared.tokensWith(await signIn(email), clientId, callback, scope)), clientId };
  };

  const mcp = async (token: string): Promise<Client> => {
    const client = new Client({ name: 'forms-oauth-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${origin}/api/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    return client;
  };

  return { ...shared, signIn, register, tokensFor, mcp };
}
