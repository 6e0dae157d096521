import { INestApplication, Injectable } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import { mediaTypeOf, OnHttpAppConfigured } from '@shared/bootstrap';
import { ACCOUNT_PATHS } from '@shared/browser-session';
import { FormsErrors } from '@forms/contracts';

const JSON_BODY = 'application/json';
const FORM_ENCODED = 'application/x-www-form-urlencoded';
const RAW_BYTES = 'application/octet-stream';

const UPLOAD_ROUTE = '/api/public/forms/:public_id/uploads';
/** The sign-in and consent pages' HTML form posts, and the OAuth token and revocation requests (form-encoded by RFC 6749). */
const FORM_POST_ROUTES = new Set([
  '/oauth/token',
  '/oauth/revoke',
  '/oauth/authorize',
  ACCOUNT_PATHS.signIn,
  ACCOUNT_PATHS.signOut,
  `${ACCOUNT_PATHS.connectedApps}/revoke`,
]);

function bodyTypesOf(route: string | undefined): string[] {
  if (route === UPLOAD_ROUTE) return [RAW_BYTES];
  return route !== undefined && FORM_POST_ROUTES.has(route) ? [JSON_BODY, FORM_ENCODED] : [JSON_BODY];
}

/**
 * The body media types each route takes: JSON; the form posts above form-encoded bodies too; the upload route only raw
 * bytes, which reach its handler unread, as a stream (UploadsService writes them to storage with its own size cap).
 * Nest parses form-encoded bodies on every route, so a body the route does not take is refused here, after parsing,
 * with 415: a cross-site HTML form posts form-encoded without a CORS preflight and must not reach the JSON routes.
 */
@Injectable()
export class RequestBodyTypes implements OnHttpAppConfigured {
  onHttpAppConfigured(app: INestApplication): void {
    const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
    fastify.addContentTypeParser(RAW_BYTES, (_request, payload, done) => done(null, payload));
    fastify.addHook('preValidation', (request, _reply, done) => {
      if (request.body === undefined) return done();
      const route = request.routeOptions.url;
      if (bodyTypesOf(route).includes(mediaTypeOf(request))) return done();
      const expected = route === UPLOAD_ROUTE ? 'Send the file as application/octet-stream.' : 'Send request bodies as application/json.';
      done(FormsErrors.fail('unsupported_media_type', expected));
    });
  }
}
