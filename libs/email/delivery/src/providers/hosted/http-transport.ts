import http, { IncomingHttpHeaders } from 'node:http';
import https from 'node:https';

/**
 * What came of one HTTP request:
 * - `response`: the provider answered (any status);
 * - `failed`: no answer. `handedOff` says whether the whole request had been written to the connection first: after
 *   that, the provider may have acted on it.
 */
export type HttpExchange =
  { kind: 'response'; status: number; headers: IncomingHttpHeaders; body: string } | { kind: 'failed'; handedOff: boolean; timedOut: boolean; message: string };

/** An exchange the provider answered (any status). */
export type HttpResponse = Extract<HttpExchange, { kind: 'response' }>;

export interface HttpCall {
  method: 'GET' | 'POST';
  url: URL;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** Bounds connecting and writing the request, then, separately, the wait for the whole response. */
  timeoutMs: number;
}

/** Longest response body kept; provider answers are small JSON documents. */
const MAX_RESPONSE_BYTES = 1024 * 1024;

// One keep-alive pool per process, shared by every provider instance. Idle sockets are dropped after 4 s, below the
// usual 5 s server keep-alive, so a request is rarely written to a socket the server is closing (that would be `unknown`).
const agentOptions = { keepAlive: true, maxSockets: 64, timeout: 4_000 };
const agents = { 'http:': new http.Agent(agentOptions), 'https:': new https.Agent(agentOptions) };

/** One request, never rejected: every failure is a `failed` exchange. */
export function httpExchange(call: HttpCall): Promise<HttpExchange> {
  const { url, body } = call;
  const client = url.protocol === 'https:' ? https : http;
  const headers = body === undefined ? call.headers : { ...call.headers, 'content-length': String(Buffer.byteLength(body)) };
  return new Promise((resolve) => {
    let handedOff = false;
    let settled = false;
    let timer: NodeJS.Timeout;
    const settle = (exchange: HttpExchange) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(exchange);
    };
    const request = client.request(url, { method: call.method, headers, agent: agents[url.protocol === 'https:' ? 'https:' : 'http:'] });
    const fail = (timedOut: boolean, message: string) => {
      settle({ kind: 'failed', handedOff, timedOut, message });
      request.destroy();
    };
    const arm = (what: string) => {
      clearTimeout(timer);
      timer = setTimeout(() => fail(true, `${what} within ${call.timeoutMs} ms`), call.timeoutMs);
    };
    arm('could not connect and send the request');
    request.on('finish', () => {
      handedOff = true;
      arm('no response');
    });
    request.on('error', (err) => fail(false, err.message));
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= MAX_RESPONSE_BYTES) chunks.push(chunk);
      });
      response.on('aborted', () => fail(false, 'the response was cut off'));
      response.on('error', (err) => fail(false, err.message));
      response.on('end', () =>
        settle({ kind: 'response', status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    request.end(body);
  });
}
