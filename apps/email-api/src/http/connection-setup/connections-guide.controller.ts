import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '@shared/auth';
import { CONNECTIONS_GUIDE_PATH } from '@email/delivery';
import { sendPage } from '@shared/browser-session';
import { connectionsGuidePage } from './setup-pages';

/**
 * The page a `setup_url` of the capabilities' delivery limitation (and a create's prerequisite) opens when this
 * server is the app: how to connect a provider. It shows nothing of the workspace the link names.
 */
@ApiExcludeController()
@Public()
@Controller(CONNECTIONS_GUIDE_PATH.slice(1))
export class ConnectionsGuideController {
  @Get()
  show(@Res() reply: FastifyReply): FastifyReply {
    return sendPage(reply, 200, connectionsGuidePage());
  }
}
