import { Socket } from 'node:net';
import { answerClientError, clientErrorResponse } from './client-error';

/** Splits the raw response into status line, headers and parsed body. */
function parse(raw: string) {
  const [head, body] = raw.split('\r\n\r\n');
  const [statusLine, ...headerLines] = head.split('\r\n');
  return { statusLine, headers: headerLines, body: JSON.parse(body) as unknown, bodyText: body };
}

describe('clientErrorResponse', () => {
  it('answers a request timeout with 408 in the envelope', () => {
    const { statusLine, body } = parse(clientErrorResponse({ code: 'ERR_HTTP_REQUEST_TIMEOUT' }));
    expect(statusLine).toBe('HTTP/1.1 408 Request Timeout');
    expect(body).toEqual({ error: { type: 'invalid_request', code: 'request_timeout', message: 'The request was not received in time.' } });
  });

  it('answers oversized headers with 431', () => {
    const { statusLine, body } = parse(clientErrorResponse({ code: 'HPE_HEADER_OVERFLOW' }));
    expect(statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(body).toEqual({ error: { type: 'invalid_request', code: 'headers_too_large', message: 'The request headers are too large.' } });
  });

  it('answers anything else, or no code, as malformed HTTP with 400, closing the connection', () => {
    for (const error of [{ code: 'HPE_INVALID_CONTENT_LENGTH' }, {}]) {
      const raw = clientErrorResponse(error);
      const { statusLine, headers, body, bodyText } = parse(raw);
      expect(statusLine).toBe('HTTP/1.1 400 Bad Request');
      expect(body).toEqual({
        error: { type: 'invalid_request', code: 'malformed_request', message: 'The request is not valid HTTP (check Content-Length and framing).' },
      });
      expect(headers).toEqual([
        'content-type: application/json; charset=utf-8',
        `content-length: ${Buffer.byteLength(bodyText)}`,
        'cache-control: no-store',
        'connection: close',
      ]);
    }
  });
});

describe('answerClientError', () => {
  function fakeSocket(state: { destroyed?: boolean; writable?: boolean; headersSent?: boolean }) {
    const written: string[] = [];
    let destroyed = 0;
    const socket = {
      destroyed: state.destroyed ?? false,
      writable: state.writable ?? true,
      _httpMessage: state.headersSent === undefined ? undefined : { headersSent: state.headersSent },
      write: (chunk: string) => written.push(chunk),
      destroy: () => void destroyed++,
    } as unknown as Socket;
    return { socket, written, destroyedCount: () => destroyed };
  }

  it('writes the envelope and closes when nothing was sent yet', () => {
    for (const headersSent of [undefined, false]) {
      const s = fakeSocket({ headersSent });
      answerClientError({ code: 'HPE_HEADER_OVERFLOW' }, s.socket);
      expect(s.written).toEqual([clientErrorResponse({ code: 'HPE_HEADER_OVERFLOW' })]);
      expect(s.destroyedCount()).toBe(1);
    }
  });

  it('only closes when a response is already in flight or the socket cannot be written', () => {
    for (const state of [{ headersSent: true }, { writable: false }]) {
      const s = fakeSocket(state);
      answerClientError({ code: 'HPE_HEADER_OVERFLOW' }, s.socket);
      expect(s.written).toEqual([]);
      expect(s.destroyedCount()).toBe(1);
    }
  });

  it('leaves a reset or already destroyed socket alone', () => {
    const reset = fakeSocket({});
    answerClientError({ code: 'ECONNRESET' }, reset.socket);
    const gone = fakeSocket({ destroyed: true });
    answerClientError({ code: 'HPE_HEADER_OVERFLOW' }, gone.socket);
    for (const s of [reset, gone]) expect([s.written, s.destroyedCount()]).toEqual([[], 0]);
  });
});
