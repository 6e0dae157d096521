import { INestApplication, Injectable } from '@nestjs/common';
import { errorCodes, type FastifyInstance, type FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { mediaTypeOf, OnHttpAppConfigured } from '@shared/bootstrap';
import { UPLOAD_PAGE_PATH } from '@email/jobs';
import { MCP_PATH } from '../mcp/mcp.controller';

const UPLOAD_ROUTE = `${UPLOAD_PAGE_PATH}/:token`;
const UNSUBSCRIBE_ROUTE = '/u/*';
const UNSUBSCRIBE_BODY_LIMIT = 4096;
const FORM_ENCODED = 'application/x-www-form-urlencoded';
/** The JSON API: its routes take JSON bodies only. */
const isApiRoute = (route: string | undefined) => route !== undefined && (route.startsWith('/v1/') || route === MCP_PATH);

type Done = (error: Error | null, body?: unknown) => void;

const refuse = (request: FastifyRequest, done: Done) => done(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(request.headers['content-type']), undefined);

/** Reads a small body as text, refusing it past `limit` bytes. */
function readText(payload: Readable, limit: number, done: Done): void {
  const chunks: Buffer[] = [];
  let bytes = 0;
  payload.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes > limit) {
      payload.removeAllListeners('data');
      return done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
    }
    chunks.push(chunk);
  });
  payload.on('end', () => bytes <= limit && done(null, Buffer.concat(chunks).toString('utf8')));
  payload.on('error', (error) => done(error));
}

/**
 * The bodies the pages take besides JSON and urlencoded forms, each on its own route only (Fastify keeps one parser per
 * media type); to any other route they are a 415, as the API stays JSON-only. Nest parses urlencoded forms on every
 * route, so the JSON API (`/v1/*`, `/mcp`) refuses those after parsing with a 415 too; the pages and OAuth routes,
 * which browsers post forms to, keep them.
 * - The import upload page: its plain form posts `multipart/form-data`, its script the raw file
 *   (`application/octet-stream`); either reaches the handler unread, as a stream, which goes to storage with its own cap.
 * - RFC 8058 one-click unsubscribes may be `multipart/form-data` (form-encoded ones Nest's own parser reads). The handler
 *   needs nothing from the body (the signed token is the authority), so it is read up to a small cap and kept as text.
 */
@Injectable()
export class PageBodyParsers implements OnHttpAppConfigured {
  onHttpAppConfigured(app: INestApplication): void {
    const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
    fastify.addContentTypeParser('application/octet-stream', (request, payload, done) =>
      request.routeOptions.url === UPLOAD_ROUTE ? done(null, payload) : refuse(request, done),
    );
    fastify.addContentTypeParser('multipart/form-data', (request, payload, done) => {
      if (request.routeOptions.url === UPLOAD_ROUTE) return done(null, payload);
      if (request.routeOptions.url === UNSUBSCRIBE_ROUTE) return readText(payload, UNSUBSCRIBE_BODY_LIMIT, done);
      refuse(request, done);
    });
    fastify.addHook('preValidation', (request, _reply, done) => {
      const mediaType = mediaTypeOf(request);
      if (request.body !== undefined && mediaType === FORM_ENCODED && isApiRoute(request.routeOptions.url))
        return done(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(mediaType));
      done();
    });
  }
}
