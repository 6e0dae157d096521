import { Body, Controller, Get, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '@shared/auth';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { SETUP_LINK_TTL_MS, SETUP_PAGE_PATH, SetupPageService, SetupPageView } from '@email/delivery';
import { sendPage } from '@shared/browser-session';
import { SetupCsrf } from './setup-csrf';
import { setupClosedPage, setupDonePage, setupFormPage } from './setup-pages';

/**
 * The browser page behind a setup session's `setup_url`: a person enters the provider's credentials, the server tests
 * them live and saves them sealed. The link's token is the only authority; credentials never touch the JSON API.
 */
@ApiExcludeController()
@Public()
@Controller(SETUP_PAGE_PATH.slice(1))
export class ConnectionSetupController {
  private readonly csrf: SetupCsrf;

  constructor(
    private readonly pages: SetupPageService,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'publicBaseUrl'>,
  ) {
    this.csrf = new SetupCsrf(config.publicBaseUrl, SETUP_PAGE_PATH, SETUP_LINK_TTL_MS / 1000);
  }

  @Get(':token')
  async show(@Param('token') token: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.render(request, reply, await this.pages.view(token));
  }

  @Post(':token')
  async submit(
    @Param('token') token: string,
    @Body() body: Record<string, unknown> | undefined,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<FastifyReply> {
    const fields = body && typeof body === 'object' ? body : {};
    if (!this.csrf.verify(request, fields.csrf_token)) {
      this.csrf.issue(request, reply);
      return sendPage(reply, 403, setupClosedPage('unverified'));
    }
    return this.render(request, reply, await this.pages.submit(token, fields));
  }

  private render(request: FastifyRequest, reply: FastifyReply, view: SetupPageView): FastifyReply {
    switch (view.state) {
      case 'invalid':
        return sendPage(reply, 404, setupClosedPage('invalid'));
      case 'closed':
        return sendPage(reply, 410, setupClosedPage(view.status));
      case 'done':
        return sendPage(reply, 200, setupDonePage(view, this.config.publicBaseUrl));
      case 'form': {
        const status = Object.keys(view.fieldErrors).length || view.testFailure ? 422 : 200;
        return sendPage(reply, status, setupFormPage(view, this.csrf.issue(request, reply)));
      }
    }
  }
}
