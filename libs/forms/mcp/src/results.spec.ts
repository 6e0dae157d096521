import { errorCategory, errorResult, routeError } from './results';
import { findTool, FormsMcpTool } from './tools';

describe('forms MCP results', () => {
  it('maps statuses to the contract categories', () => {
    expect([400, 413, 422, 401, 403, 409, 429, 404, 410, 500, 503].map(errorCategory)).toEqual([
      'validation',
      'validation',
      'validation',
      'authentication',
      'permission',
      'conflict',
      'rate_limit',
      'request',
      'request',
      'server',
      'server',
    ]);
  });

  it('builds the error envelope from a REST answer: retry hint, recovery and the error details', () => {
    const error = routeError({
      status: 429,
      headers: { 'retry-after': '7' },
      body: { error: { type: 'rate_limit_error', code: 'rate_limited', message: 'Slow down.', limit: 10 } },
    });
    expect(errorResult('postline_get_form', error)).toEqual({
      content: [{ type: 'text', text: expect.any(String) }],
      isError: true,
      structuredContent: {
        operation_id: 'postline_get_form',
        error: {
          category: 'rate_limit',
          status: 429,
          code: 'rate_limited',
          message: 'Slow down.',
          retryable: true,
          retry_after_ms: 7000,
          recovery: { action: 'retry_later', hint: expect.any(String) },
          details: { limit: 10 },
        },
      },
    });
    expect(errorResult('t', routeError({ status: 502, headers: {}, body: null })).structuredContent).toMatchObject({
      error: { category: 'server', code: 'unknown_error', retryable: true },
    });
  });

  it('tells a stale draft revision (reload and retry) from other conflicts (change the request)', () => {
    const recovery = (code: string) =>
      (errorResult('t', { status: 409, code, message: 'm' }).structuredContent as { error: { recovery: { action: string } } }).error.recovery.action;
    expect(['stale_draft_revision', 'slug_taken', 'idempotency_key_reused', 'duplicate_submission'].map(recovery)).toEqual([
      'reload_and_retry',
      'resolve_conflict',
      'resolve_conflict',
      'resolve_conflict',
    ]);
  });

  it('finds a tool by its underscore name or the dotted alias', () => {
    const tools = [{ name: 'postline_get_form' }] as FormsMcpTool[];
    expect(findTool(tools, 'postline.get_form')).toBe(tools[0]);
    expect(findTool(tools, 'postline_get_form')).toBe(tools[0]);
    expect(findTool(tools, 'formasty_get_form')).toBeUndefined();
  });
});
