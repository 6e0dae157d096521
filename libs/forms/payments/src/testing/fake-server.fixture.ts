import http, { IncomingMessage, ServerResponse } from 'node:http';
import { LoopbackHttpServer, startLoopbackHttpServer } from '@shared/testing';

export interface FakeCall {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface FakeAnswer {
  status: number;
  body: unknown;
  contentType?: string;
}

/** A provider fake on 127.0.0.1 (a random port): every call is kept; browsers on any origin may call it (CORS). */
export abstract class FakeHttpServer {
  readonly calls: FakeCall[] = [];
  baseUrl = '';
  private server?: LoopbackHttpServer;
  private sequence = 0;

  async start(): Promise<this> {
    this.server = await startLoopbackHttpServer((request, response) => void this.serve(request, response));
    this.baseUrl = this.server.url;
    return this;
  }

  async stop(): Promise<void> {
    await this.server?.stop();
  }

  protected nextId(prefix: string): string {
    this.sequence += 1;
    return `${prefix}_Fake${String(this.sequence).padStart(10, '0')}`;
  }

  protected abstract answer(call: FakeCall): FakeAnswer | Promise<FakeAnswer>;

  private async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    response.setHeader('access-control-allow-origin', '*');
    response.setHeader('access-control-allow-headers', 'authorization, content-type');
    if (request.method === 'OPTIONS') {
      response.writeHead(204).end();
      return;
    }
    const call: FakeCall = {
      method: request.method ?? 'GET',
      path: request.url ?? '/',
      headers: request.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    };
    this.calls.push(call);
    const { status, body, contentType } = await this.answer(call);
    response.writeHead(status, { 'content-type': contentType ?? 'application/json' });
    response.end(typeof body === 'string' ? body : JSON.stringify(body));
  }
}

export const json = (status: number, body: unknown): FakeAnswer => ({ status, body });
