import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { toErrorResponse } from './to-error-response';

/** While a data store is down every request fails the same way: one warning per interval says so. */
const OUTAGE_LOG_INTERVAL_MS = 10_000;

/** The one filter each app installs: every thrown error leaves as the `{error:{...}}` envelope. */
@Catch()
export class ErrorEnvelopeFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');
  private lastOutageLog = 0;

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = toErrorResponse(exception);
    if (response.unexpected) this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
    else if (response.status === 503) this.warnOutage(exception);
    const { httpAdapter } = this.adapterHost;
    const reply = host.switchToHttp().getResponse<unknown>();
    for (const [name, value] of Object.entries(response.headers)) httpAdapter.setHeader(reply, name, value);
    httpAdapter.reply(reply, response.body, response.status);
  }

  private warnOutage(exception: unknown): void {
    const now = Date.now();
    if (now - this.lastOutageLog < OUTAGE_LOG_INTERVAL_MS) return;
    this.lastOutageLog = now;
    const reason = exception instanceof Error ? `${exception.name}: ${exception.message.split('\n').filter(Boolean).pop()}` : String(exception);
    this.logger.warn(`answering 503: a data store is unreachable (${reason})`);
  }
}
