import { AppConfig } from '@shared/config';
import { ApiMetadataDto } from './api-metadata.dto';

export const API_VERSION = 'v1';

/** Every discovery link, built from the configured public and documentation base URLs. */
export function buildApiMetadata(config: Pick<AppConfig, 'publicBaseUrl' | 'docsBaseUrl'>): ApiMetadataDto {
  const api = config.publicBaseUrl;
  const docs = config.docsBaseUrl;
  return {
    version: API_VERSION,
    documentation_url: docs,
    reference_url: `${docs}/api-reference`,
    agents_url: `${docs}/agents`,
    sdk_docs_url: `${docs}/sdks`,
    typescript_sdk_url: `${docs}/sdks/typescript`,
    python_sdk_url: `${docs}/sdks/python`,
    mcp_docs_url: `${docs}/mcp`,
    mcp_url: `${api}/mcp`,
    llms_url: `${api}/llms.txt`,
    llms_full_url: `${api}/llms-full.txt`,
    openapi_url: `${api}/v1/openapi.json`,
    capabilities_url: `${api}/v1/capabilities`,
    webhook_subscriptions_url: `${api}/v1/webhook-subscriptions`,
    oauth_authorization_server_url: `${api}/.well-known/oauth-authorization-server`,
  };
}
