import { INestApplication } from '@nestjs/common';
import { connect, Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import request from 'supertest';

/** Timeouts short enough for a test, passed to the app under test as environment. */
export const SHORT_HTTP_TIMEOUTS = { HTTP_HEADERS_TIMEOUT_MS: '500', HTTP_REQUEST_TIMEOUT_MS: '1000', HTTP_MAX_CONNECTIONS: '20' };
/** How long the server may take past HTTP_REQUEST_TIMEOUT_MS: Node checks open requests every 500 ms here. */
const TIMEOUT_SLACK_MS = 1500;

export interface EdgeTarget {
  app: INestApplication;
  /** `Bearer …` for an authenticated JSON list. */
  authorization: string;
  /** An authenticated JSON list, e.g. `/v1/tags`. */
  list: string;
  /** A route ending in a path parameter, without the parameter, e.g. `/v1/subscribers/`. */
  itemPrefix: string;
  /** A POST route that takes a JSON body. */
  create: string;
}

interface RawExchange {
  /** Everything the server wrote before it closed the connection. */
  text: string;
  elapsedMs: number;
}

/** Writes `chunks` on a fresh connection (the last one stays open), then reads until the server closes it. */
function rawExchange(app: INestApplication, chunks: string[], giveUpMs = 10_000): Promise<RawExchange> {
  const { port } = app.getHttpServer().address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket: Socket = connect({ host: '127.0.0.1', port }, () => {
      for (const chunk of chunks) socket.write(chunk);
    });
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (data: string) => (text += data));
    socket.on('error', () => undefined); // a reset after the answer is what a hard close looks like
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text, elapsedMs: Date.now() - started });
    });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server kept the connection open for ${giveUpMs} ms; it wrote: ${JSON.stringify(text)}`));
    }, giveUpMs);
  });
}

/** Every HTTP response in a raw byte stream, with its status and parsed JSON body. */
function responsesIn(text: string): { status: number; body: unknown }[] {
  const responses: { status: number; body: unknown }[] = [];
  let rest = text;
  while (rest.startsWith('HTTP/1.1 ')) {
    const headEnd = rest.indexOf('\r\n\r\n');
    const head = rest.slice(0, headEnd);
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
    const body = rest.slice(headEnd + 4, headEnd + 4 + length);
    responses.push({ status: Number(head.slice(9, 12)), body: JSON.parse(body) });
    rest = rest.slice(headEnd + 4 + length);
  }
  return responses;
}

const envelope = (code: string) => ({ error: { type: 'invalid_request', code, message: expect.any(String) } });

/**
 * What every API answers before its routes run: malformed paths, over-long parameters, broken framing, slow
 * clients — all in the error envelope — and no caching of API responses. Boot the app with SHORT_HTTP_TIMEOUTS.
 */
export function describeHttpEdges(service: string, boot: () => Promise<EdgeTarget & { close(): Promise<void> }>): void {
  describe(`${service}: requests that fail before a route runs`, () => {
    let target: EdgeTarget & { close(): Promise<void> };
    const http = () => request(target.app.getHttpServer());
    const head = (method: string, path: string, headers: Record<string, string | number>) =>
      `${method} ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\n${Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('')}\r\n`;

    beforeAll(async () => {
      target = await boot();
      await target.app.listen(0, '127.0.0.1');
    });

    afterAll(async () => {
      await target?.close();
    });

    it('400 invalid_path in the envelope for malformed percent-encoding', async () => {
      const res = await http().get(`${target.itemPrefix}%ff`).set('authorization', target.authorization).expect(400);
      expect(res.body).toEqual(envelope('invalid_path'));
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-request-id']).toMatch(/^req_/);
    });

    it('414 path_too_long in the envelope for a path parameter over 765 characters', async () => {
      const res = await http()
        .get(`${target.itemPrefix}${'a'.repeat(766)}`)
        .set('authorization', target.authorization)
        .expect(414);
      expect(res.body).toEqual(envelope('path_too_long'));
    });

    it('answers a Content-Length shorter than the body only with envelopes, then closes', async () => {
      const body = '{"name":"short content length"}';
      const exchange = await rawExchange(target.app, [
        `${head('POST', target.create, { authorization: target.authorization, 'content-type': 'application/json', 'content-length': 5 })}${body}`,
      ]);
      const responses = responsesIn(exchange.text);
      expect(responses.length).toBeGreaterThanOrEqual(1);
      for (const response of responses) {
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ error: expect.objectContaining({ type: 'invalid_request', code: expect.any(String) }) });
        expect(response.body).not.toHaveProperty('statusCode');
      }
      expect(responses.map((r) => (r.body as { error: { code: string } }).error.code)).toContain('malformed_request');
    });

    it('408 request_timeout in the envelope, and a closed socket, for a body that never completes', async () => {
      const exchange = await rawExchange(target.app, [
        head('POST', target.create, { authorization: target.authorization, 'content-type': 'application/json', 'content-length': 100 }),
        '{"name":"half a bo',
      ]);
      expect(responsesIn(exchange.text)).toEqual([{ status: 408, body: envelope('request_timeout') }]);
      expect(exchange.elapsedMs).toBeLessThan(Number(SHORT_HTTP_TIMEOUTS.HTTP_REQUEST_TIMEOUT_MS) + TIMEOUT_SLACK_MS);
    });

    it('408 for request headers that never complete', async () => {
      const exchange = await rawExchange(target.app, [`GET ${target.list} HTTP/1.1\r\nhost: 127.0.0.1\r\nx-slow: `]);
      expect(responsesIn(exchange.text)).toEqual([{ status: 408, body: envelope('request_timeout') }]);
      expect(exchange.elapsedMs).toBeLessThan(Number(SHORT_HTTP_TIMEOUTS.HTTP_REQUEST_TIMEOUT_MS) + TIMEOUT_SLACK_MS);
    });

    it('431 headers_too_large in the envelope for an oversized request head', async () => {
      const exchange = await rawExchange(target.app, [head('GET', target.list, { 'x-padding': 'p'.repeat(20_000) })]);
      expect(responsesIn(exchange.text)).toEqual([{ status: 431, body: envelope('headers_too_large') }]);
    });

    it('400 malformed_request in the envelope for bytes that are not HTTP', async () => {
      const exchange = await rawExchange(target.app, ['NOT HTTP AT ALL\r\n\r\n']);
      expect(responsesIn(exchange.text)).toEqual([{ status: 400, body: envelope('malformed_request') }]);
    });

    it('drops connections beyond HTTP_MAX_CONNECTIONS at once, and serves again when they go', async () => {
      const { port } = target.app.getHttpServer().address() as AddressInfo;
      const held = await Promise.all(
        Array.from({ length: Number(SHORT_HTTP_TIMEOUTS.HTTP_MAX_CONNECTIONS) }, () => {
          return new Promise<Socket>((resolve) => {
            const socket = connect({ host: '127.0.0.1', port }, () => resolve(socket));
          });
        }),
      );
      try {
        const refused = await rawExchange(target.app, [head('GET', target.list, { authorization: target.authorization })], 3000);
        expect(refused.text).toBe('');
      } finally {
        for (const socket of held) socket.destroy();
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
      await http().get(target.list).set('authorization', target.authorization).expect(200);
    });

    it('Cache-Control: no-store on API responses and error envelopes', async () => {
      const list = await http().get(target.list).set('authorization', target.authorization).expect(200);
      expect(list.headers['cache-control']).toBe('no-store');
      const missing = await http().get('/no/such/route').expect(404);
      expect(missing.headers['cache-control']).toBe('no-store');
    });
  });
}
