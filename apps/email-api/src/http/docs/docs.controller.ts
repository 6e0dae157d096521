import { Controller, Get, Headers, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '@shared/auth';
import { EmailErrors } from '@email/contracts';
import { DOCS_ASSET_ROUTE, DOCS_PAGE_ROUTES, DocsSite } from '@email/docs-pages';

const routeOf = (path: string) => path.slice(1);

/** The documentation pages (`/docs`, and `/settings`, where the 403 `access_update_url` leads) and their static files. */
@ApiExcludeController()
@Public()
@Controller()
export class DocsController {
  constructor(private readonly site: DocsSite) {}

  /** The host's root (the OpenAPI document's server URL) leads a visitor to the documentation. */
  @Get('/')
  home(@Res() reply: FastifyReply): FastifyReply {
    return reply.redirect(this.site.home, 302);
  }

  @Get(Object.values(DOCS_PAGE_ROUTES).map(routeOf))
  page(@Req() request: FastifyRequest, @Headers('if-none-match') ifNoneMatch: string | undefined, @Res() reply: FastifyReply): FastifyReply {
    const page = this.site.page(request.routeOptions.url ?? '');
    if (!page) throw EmailErrors.fail('route_not_found', 'No route matches this method and path.');
    reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', this.site.csp)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .header('cache-control', 'no-cache')
      .header('etag', page.etag);
    return ifNoneMatch === page.etag ? reply.status(304).send() : reply.send(page.body);
  }

  @Get(`${routeOf(DOCS_ASSET_ROUTE)}/:file`)
  asset(
    @Param('file') file: string,
    @Headers('accept-encoding') acceptEncoding: string | undefined,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res() reply: FastifyReply,
  ): FastifyReply {
    const asset = this.site.asset(file);
    if (!asset) throw EmailErrors.fail('route_not_found', 'No documentation file has this name.');
    reply
      .header('content-type', asset.contentType)
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('etag', asset.etag)
      .header('vary', 'accept-encoding');
    if (ifNoneMatch === asset.etag) return reply.status(304).send();
    return /\bgzip\b/.test(acceptEncoding ?? '') ? reply.header('content-encoding', 'gzip').send(asset.gzip()) : reply.send(asset.body);
  }
}
