import { ArgumentsHost, Logger } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { SharedErrors, TooManyRequests } from './error-codes';
import { ErrorEnvelopeFilter } from './exception.filter';

describe('ErrorEnvelopeFilter', () => {
  const reply = { id: 'reply' };
  const host = { switchToHttp: () => ({ getResponse: () => reply }) } as unknown as ArgumentsHost;
  let sent: { headers: [unknown, string, string][]; replies: [unknown, unknown, number][] };
  let filter: ErrorEnvelopeFilter;
  let errors: jest.SpyInstance;
  let warnings: jest.SpyInstance;

  beforeEach(() => {
    sent = { headers: [], replies: [] };
    const httpAdapter = {
      setHeader: (target: unknown, name: string, value: string) => sent.headers.push([target, name, value]),
      reply: (target: unknown, body: unknown, status: number) => sent.replies.push([target, body, status]),
    };
    filter = new ErrorEnvelopeFilter({ httpAdapter } as unknown as HttpAdapterHost);
    errors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    warnings = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });

  afterEach(() => jest.restoreAllMocks());

  it('replies with the envelope, its status and its headers, logging nothing for a client error', () => {
    filter.catch(TooManyRequests(3), host);
    expect(sent.headers).toEqual([[reply, 'retry-after', '3']]);
    expect(sent.replies).toEqual([[reply, { error: expect.objectContaining({ code: 'rate_limited' }) }, 429]]);
    filter.catch(SharedErrors.fail('route_not_found', 'No such route.'), host);
    expect(sent.replies[1][2]).toBe(404);
    expect(errors).not.toHaveBeenCalled();
    expect(warnings).not.toHaveBeenCalled();
  });

  it('logs the stack of a bug, or the value thrown, and answers a bare 500', () => {
    const bug = new TypeError('x is undefined');
    filter.catch(bug, host);
    filter.catch('a thrown string', host);
    expect(errors.mock.calls).toEqual([[bug.stack], ['a thrown string']]);
    expect(sent.replies.map(([, , status]) => status)).toEqual([500, 500]);
    expect(JSON.stringify(sent.replies)).not.toContain('x is undefined');
  });

  it('warns about an outage with the last line of its message, at most once per 10 seconds', () => {
    const now = jest.spyOn(Date, 'now').mockReturnValue(1_000_000);
    const outage = Object.assign(new Error('connect failed\nECONNREFUSED 127.0.0.1:5432\n'), { code: 'ECONNREFUSED' });
    filter.catch(outage, host);
    now.mockReturnValue(1_009_999);
    filter.catch(outage, host);
    expect(warnings.mock.calls).toEqual([['answering 503: a data store is unreachable (Error: ECONNREFUSED 127.0.0.1:5432)']]);
    now.mockReturnValue(1_010_000);
    filter.catch(outage, host);
    expect(warnings).toHaveBeenCalledTimes(2);
    expect(errors).not.toHaveBeenCalled();
    expect(sent.replies.map(([, , status]) => status)).toEqual([503, 503, 503]);
    expect(sent.headers[0]).toEqual([reply, 'retry-after', '5']);
  });
});
