import request from 'supertest';
import { EmailApiHarness } from './helpers';

/** Starts an upload through the API: its id and the page's path. */
export async function startUpload(api: EmailApiHarness, key?: string): Promise<{ id: string; path: string }> {
  const { body } = await api.as(key).post('/v1/jobs/subscriber-import-uploads').expect(201);
  return { id: body.data.id, path: new URL(body.data.upload_url).pathname };
}

/** Opens the upload page like a browser: its CSRF cookie and token. */
export async function openUploadPage(api: EmailApiHarness, pagePath: string): Promise<{ cookie: string; csrf: string }> {
  const page = await request(api.app.getHttpServer()).get(pagePath).expect(200);
  return { cookie: page.headers['set-cookie'][0].split(';')[0], csrf: /name="csrf_token" value="([^"]+)"/.exec(page.text)![1] };
}

/** Posts a file to the upload page as its script does. */
export const sendUpload = (api: EmailApiHarness, pagePath: string, session: { cookie: string; csrf: string }, bytes: Buffer, name = 'list.csv') =>
  request(api.app.getHttpServer())
    .post(pagePath)
    .set('cookie', session.cookie)
    .set('x-csrf-token', session.csrf)
    .set('x-file-name', encodeURIComponent(name))
    .set('content-type', 'application/octet-stream')
    .send(bytes);

/** An upload that is Ready with `csv`. */
export async function readyUpload(api: EmailApiHarness, csv: string, key?: string): Promise<string> {
  const upload = await startUpload(api, key);
  await sendUpload(api, upload.path, await openUploadPage(api, upload.path), Buffer.from(csv)).expect(200);
  return upload.id;
}
