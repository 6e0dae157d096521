import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { toErrorResponse } from './to-error-response';

/** The one filter each app installs: every thrown error leaves as the `{error:{...}}` envelope. */
@Catch()
export class ErrorEnvelopeFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = toErrorResponse(exception);
    if (response.unexpected) this.logger.error(exception instanceof Error ? exception.stack ?? exception.message : String(exception));
    const { httpAdapter } = this.adapterHost;
    const reply = host.switchToHttp().getResponse();
    for (const [name, value] of Object.entries(response.headers)) httpAdapter.setHeader(reply, name, value);
    httpAdapter.reply(reply, response.body, response.status);
  }
}
