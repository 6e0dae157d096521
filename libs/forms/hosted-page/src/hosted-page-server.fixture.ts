/**
 * A node server for the hosted page in Chromium tests: the rendered page (with its CSP), the bundled script, the theme
 * fonts, and fake submission and upload endpoints that answer like the API (the thank-you screen comes from `walk`).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DraftSchema } from '@forms/draft-schema';
import { walk, type Answers } from '@forms/runtime';
import { hostedFormStylesheet } from './assets';
import { hostedFormCsp } from './csp';
import { hostedFontFile } from './fonts';
import { renderHostedForm } from './page';
import { hostedFormScript } from './script';

export interface Recorded {
  submissions: { values: Answers; hiddenValues: Record<string, string>; completedStepIds: string[]; analyticsSessionId: string }[];
  uploads: { headers: IncomingMessage['headers']; size: number }[];
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startServer(
  forms: Record<string, DraftSchema>,
  recorded: Recorded,
  title: (publicId: string) => string = () => 'Join the club',
): Promise<{ server: Server; origin: string }> {
  const script = await hostedFormScript();
  const page = (publicId: string) =>
    renderHostedForm({
      formId: `frm_${publicId}`,
      publicId,
      title: title(publicId),
      publishedVersion: 1,
      schema: forms[publicId],
      submitUrl: `/api/public/forms/${publicId}/submissions`,
      uploadUrl: `/api/public/forms/${publicId}/uploads`,
      scriptUrl: `/f/assets/${script.fileName}`,
      stylesheetUrl: `/f/assets/${hostedFormStylesheet().fileName}`,
      fontsUrl: '/f/fonts',
    });
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const json = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    const publicId = /^\/(?:f|api\/public\/forms)\/(pub_[a-z]+)/.exec(url.pathname)?.[1] ?? '';
    const form = forms[publicId];
    if (request.method === 'GET' && form && url.pathname === `/f/${publicId}`) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': hostedFormCsp(form.theme) });
      return response.end(page(publicId));
    }
    if (request.method === 'GET' && url.pathname === `/f/assets/${hostedFormStylesheet().fileName}`) {
      response.writeHead(200, { 'content-type': 'text/css; charset=utf-8' });
      return response.end(hostedFormStylesheet().body);
    }
    if (request.method === 'GET' && url.pathname === `/f/assets/${script.fileName}`) {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', etag: script.etag });
      return response.end(script.body);
    }
    const font = request.method === 'GET' && url.pathname.startsWith('/f/fonts/') ? hostedFontFile(url.pathname.slice('/f/fonts/'.length)) : null;
    if (font) {
      response.writeHead(200, { 'content-type': 'font/woff2' });
      return response.end(font.body);
    }
    if (request.method === 'POST' && form && url.pathname === `/api/public/forms/${publicId}/uploads`) {
      const body = await readBody(request);
      recorded.uploads.push({ headers: request.headers, size: body.length });
      const fileName = decodeURIComponent(String(request.headers['x-file-name']));
      return json(201, { id: 'upl_1', fileName, mimeType: request.headers['x-file-type'], size: body.length, url: 'https://files.test/upl_1' });
    }
    if (request.method === 'POST' && form && url.pathname === `/api/public/forms/${publicId}/submissions`) {
      const body = JSON.parse((await readBody(request)).toString('utf8'));
      recorded.submissions.push(body);
      if (body.values.email === 'blocked@example.com') {
        return json(422, {
          error: { type: 'validation_error', code: 'invalid_answer', message: 'This address cannot be used.', details: { field: 'values.email' } },
        });
      }
      const result = walk(form, body.values, body.hiddenValues);
      const screen = result.endingScreen;
      return json(201, {
        submission: { id: 'sub_1' },
        thank_you: { id: screen.id, title: screen.title },
        ...(result.redirectTo ? { redirect_to: result.redirectTo } : {}),
      });
    }
    response.writeHead(url.pathname === '/favicon.ico' ? 204 : 404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
