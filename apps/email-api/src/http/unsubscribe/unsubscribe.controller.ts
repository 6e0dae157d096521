import { Controller, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '@shared/auth';
import { sendPage } from '@shared/browser-session';
import { confirmPage, donePage, invalidPage } from './unsubscribe-pages';
import { UnsubscribeService, UnsubscribeView } from './unsubscribe.service';

/**
 * The per-recipient unsubscribe link (`List-Unsubscribe: <…/u/{token}>`): GET shows the confirm page, POST unsubscribes,
 * both for RFC 8058 one-click (`List-Unsubscribe=One-Click`, form-encoded, sent by the mail client) and the page's form.
 * The signed token is the only authority; the body is not needed. Not part of the API, so not in the OpenAPI document.
 */
@ApiExcludeController()
@Public()
@Controller('u')
export class UnsubscribeController {
  constructor(private readonly unsubscribes: UnsubscribeService) {}

  @Get('*')
  async page(@Param('*') token: string, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return render(reply, await this.unsubscribes.view(token));
  }

  @Post('*')
  @HttpCode(200)
  async unsubscribe(@Param('*') token: string, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return render(reply, await this.unsubscribes.unsubscribe(token));
  }
}

function render(reply: FastifyReply, view: UnsubscribeView): FastifyReply {
  if (view.state === 'invalid') return sendPage(reply, 404, invalidPage());
  return sendPage(reply, 200, view.state === 'confirm' ? confirmPage(view.workspaceName, view.email) : donePage(view.workspaceName, view.email));
}
