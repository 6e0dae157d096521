import { apiCatalogLinkHeader, buildApiCatalog } from './api-catalog';

describe('API catalog (RFC 9727)', () => {
  const config = { publicBaseUrl: 'https://api.example.com', docsBaseUrl: 'https://docs.example.com' };

  it('lists the v1 API and links its OpenAPI document, documentation and metadata', () => {
    const { linkset } = buildApiCatalog(config);
    expect(linkset[0]).toEqual({
      anchor: 'https://api.example.com/.well-known/api-catalog',
      item: [expect.objectContaining({ href: 'https://api.example.com/v1' })],
    });
    expect(linkset[1]).toEqual({
      anchor: 'https://api.example.com/v1',
      'service-desc': [{ href: 'https://api.example.com/v1/openapi.json', type: 'application/vnd.oai.openapi+json' }],
      'service-doc': [
        { href: 'https://docs.example.com', type: 'text/html' },
        { href: 'https://api.example.com/llms.txt', type: 'text/plain' },
      ],
      'service-meta': [{ href: 'https://api.example.com/v1', type: 'application/json' }],
    });
    expect(apiCatalogLinkHeader(config)).toBe('<https://api.example.com/.well-known/api-catalog>; rel="api-catalog"');
  });
});
