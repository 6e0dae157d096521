import { INestApplication } from '@nestjs/common';
import request from 'supertest';

/** The per-IP limit on unauthenticated MCP requests the suite runs under. */
export const MCP_PUBLIC_LIMIT_ENV = { MCP_PUBLIC_REQUESTS_PER_IP: '2', MCP_PUBLIC_WINDOW_SECONDS: '60' };

export interface McpPublicLimitTarget {
  app: INestApplication;
  /** The service's MCP endpoint, e.g. `/mcp`. */
  path: string;
  /** A key that works, and a tool it may call. */
  key: string;
  tool: string;
  close(): Promise<void>;
}

const rpc = (method: string, params: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id: 1, method, params });
const INITIALIZE = rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'limit-test', version: '1' } });

/**
 * initialize and tools/list need no credential, so they are counted per client IP (X-Forwarded-For: the app trusts
 * its loopback proxy); tools/call is authenticated and counted per credential instead.
 */
export function describeMcpPublicLimit(service: string, boot: () => Promise<McpPublicLimitTarget>): void {
  describe(`${service}: unauthenticated MCP requests are limited per IP`, () => {
    let target: McpPublicLimitTarget;
    beforeAll(async () => {
      target = await boot();
    });
    afterAll(() => target?.close());

    const post = (ip: string, body: object, key?: string) => {
      const test = request(target.app.getHttpServer())
        .post(target.path)
        .set('x-forwarded-for', ip)
        .set('accept', 'application/json, text/event-stream')
        .send(body);
      return key ? test.set('authorization', `Bearer ${key}`) : test;
    };

    it('past the limit: 429 rate_limited with Retry-After; other addresses and tools/call are not affected', async () => {
      expect((await post('198.51.100.7', INITIALIZE)).status).toBe(200);
      expect((await post('198.51.100.7', rpc('tools/list'))).status).toBe(200);

      const refused = await post('198.51.100.7', rpc('tools/list'));
      expect(refused.status).toBe(429);
      expect(refused.body.error).toMatchObject({ type: 'invalid_request', code: 'rate_limited' });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);

      expect((await post('198.51.100.8', INITIALIZE)).status).toBe(200);
      const call = await post('198.51.100.7', rpc('tools/call', { name: target.tool, arguments: {} }), target.key);
      expect(call.status).toBe(200);
      expect(call.body).toMatchObject({ result: expect.not.objectContaining({ isError: true }) });
    });
  });
}
