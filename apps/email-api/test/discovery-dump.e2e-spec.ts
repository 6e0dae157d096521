import { writeFileSync } from 'node:fs';
import { emailApi, EmailApiHarness } from './helpers';

describe('dump', () => {
  let h: EmailApiHarness;
  beforeAll(async () => {
    h = await emailApi({ PUBLIC_BASE_URL: 'https://mail.example.test' });
  });
  afterAll(() => h?.close());
  it('dumps', async () => {
    const doc = await h.as().get('/v1/openapi.json');
    writeFileSync('/tmp/disc/openapi.json', JSON.stringify(doc.body, null, 2));
    const caps = await h.as().get('/v1/capabilities');
    writeFileSync('/tmp/disc/caps.json', JSON.stringify(caps.body, null, 2));
    writeFileSync('/tmp/disc/llms.txt', (await h.as().get('/llms.txt')).text);
    writeFileSync('/tmp/disc/llms-full.txt', (await h.as().get('/llms-full.txt')).text);
    const cat = await h.as().get('/.well-known/api-catalog');
    writeFileSync('/tmp/disc/catalog.txt', JSON.stringify({ headers: cat.headers, body: cat.text }, null, 2));
    console.log(doc.status, caps.status, cat.status);
  });
});
