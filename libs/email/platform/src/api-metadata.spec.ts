import { buildApiMetadata } from './api-metadata';

describe('buildApiMetadata', () => {
  it('builds every link from the configured base URLs', () => {
    const meta = buildApiMetadata({ publicBaseUrl: 'https://mail.example.com', docsBaseUrl: 'https://docs.example.com' });
    expect(meta.version).toBe('v1');
    expect(meta.openapi_url).toBe('https://mail.example.com/v1/openapi.json');
    expect(meta.capabilities_url).toBe('https://mail.example.com/v1/capabilities');
    expect(meta.reference_url).toBe('https://docs.example.com/api-reference');
    expect(Object.keys(meta)).toHaveLength(15);
    for (const value of Object.values(meta)) expect(typeof value).toBe('string');
  });
});
