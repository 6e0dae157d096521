import { INestApplication, Injectable } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { OnHttpAppConfigured } from '@shared/bootstrap';
import { Clock } from '@shared/core';
import { TrackingClaims, TrackingTokens } from '@email/delivery';
import { EngagementGroupCommit } from './engagement-group-commit';
import { sendContinue, sendInvalidLink, sendPixel, sendRedirect } from './tracking-responses';

// Wildcards, not `:token`: a token is longer than the router's 100-character limit on a named parameter.
type OpenRequest = FastifyRequest<{ Params: { '*': string } }>;
type ClickRequest = FastifyRequest<{ Params: { '*': string }; Querystring: { u?: unknown } }>;

/** The redirect target: an absolute http(s) URL, serialised by the URL parser (so no byte of it can break the header). */
function redirectTarget(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}

/**
 * The open pixel `GET /o/{token}` and the click redirect `GET /c/{token}/{signature}?u={url}`: public, authenticated
 * by their signatures alone, and plain Fastify routes outside Nest's pipeline (no guards, interceptors, validation
 * pipe or rate limit): the fast path. A HEAD (link scanners, prefetchers checking a URL) gets the same answer and
 * records nothing.
 *
 * An answer that says "recorded" (the pixel's 200, the click's 302) is sent only after the event's transaction has
 * committed (EngagementGroupCommit). A bad or expired token still gets its pixel, and a click with one gets a 404
 * page, never a redirect; neither records anything.
 */
@Injectable()
export class TrackingRoutes implements OnHttpAppConfigured {
  constructor(
    private readonly tokens: TrackingTokens,
    private readonly events: EngagementGroupCommit,
    private readonly clock: Clock,
  ) {}

  onHttpAppConfigured(app: INestApplication): void {
    const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
    fastify.get('/o/*', (request: OpenRequest, reply) => this.open(request, reply));
    fastify.get('/c/*', (request: ClickRequest, reply) => this.click(request, reply));
  }

  private async open(request: OpenRequest, reply: FastifyReply): Promise<FastifyReply> {
    const now = this.clock.now();
    const claims = this.tokens.verify(request.params['*'], now);
    const recorded = !claims || (await this.record(request, claims, 'opened', now));
    return sendPixel(reply, recorded ? 200 : 503);
  }

  private async click(request: ClickRequest, reply: FastifyReply): Promise<FastifyReply> {
    const now = this.clock.now();
    const [token, signature, ...rest] = request.params['*'].split('/');
    const claims = rest.length === 0 && signature !== undefined ? this.tokens.verify(token, now) : null;
    const url = request.query.u;
    if (!claims || typeof url !== 'string' || !this.tokens.linkMatches(claims, url, signature)) return sendInvalidLink(reply);
    const location = redirectTarget(url);
    if (!location) return sendInvalidLink(reply);
    return (await this.record(request, claims, 'clicked', now)) ? sendRedirect(reply, location) : sendContinue(reply, location);
  }

  /** True once the event is committed (or, for a HEAD, needs no recording); false when the write failed or was refused. */
  private async record(request: FastifyRequest, claims: TrackingClaims, type: 'opened' | 'clicked', occurredAt: Date): Promise<boolean> {
    if (request.method !== 'GET') return true;
    try {
      await this.events.record(claims.workspaceId, {
        subscriberId: claims.subscriberId,
        type,
        occurredAt,
        sourceType: claims.source.type,
        sourceId: claims.source.id,
        // The machine-open classifier reads it (Apple's privacy proxy, Yahoo's, scanners); it is never stored.
        userAgent: request.headers['user-agent'] ?? null,
      });
      return true;
    } catch {
      return false;
    }
  }
}
