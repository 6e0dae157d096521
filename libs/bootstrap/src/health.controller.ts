import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '@shared/auth';
import { ReadinessCheck, READINESS_CHECKS, runReadiness } from './readiness';

interface StatusReply {
  status(code: number): { send(body: unknown): unknown };
}

/** `/healthz`: the process is up. `/readyz`: its database and Redis answer. */
@ApiExcludeController()
@Public()
@Controller()
export class HealthController {
  constructor(@Inject(READINESS_CHECKS) private readonly checks: ReadinessCheck[]) {}

  @Get('healthz')
  health() {
    return { status: 'ok' };
  }

  @Get('readyz')
  async ready(@Res() reply: StatusReply) {
    const report = await runReadiness(this.checks);
    return reply.status(report.status === 'ok' ? 200 : 503).send(report);
  }
}
