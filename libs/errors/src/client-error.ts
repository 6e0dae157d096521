import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

interface ClientError {
  code?: string;
}

interface HttpSocket extends Socket {
  /** The response Node is writing on this socket, if any (internal, but what Node's own handler checks). */
  _httpMessage?: { headersSent?: boolean };
}

const CLIENT_ERRORS: Record<string, { status: number; code: string; message: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, code: 'request_timeout', message: 'The request was not received in time.' },
  HPE_HEADER_OVERFLOW: { status: 431, code: 'headers_too_large', message: 'The request headers are too large.' },
};
const MALFORMED = { status: 400, code: 'malformed_request', message: 'The request is not valid HTTP (check Content-Length and framing).' };

/** The raw HTTP response for a request Node could not read: timed out, oversized head, or broken framing. */
export function clientErrorResponse(error: ClientError): string {
  const { status, code, message } = CLIENT_ERRORS[error.code ?? ''] ?? MALFORMED;
  const body = JSON.stringify({ error: { type: 'invalid_request', code, message } });
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(body)}`,
    'cache-control: no-store',
    'connection: close',
    '',
    body,
  ].join('\r\n');
}

/**
 * The server's `clientError` handler: answers in the error envelope when nothing has been written on the socket yet
 * (as Node's own handler does, so a response in flight is never corrupted), then closes the connection.
 */
export function answerClientError(error: ClientError, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const inFlight = (socket as HttpSocket)._httpMessage;
  if (socket.writable && !inFlight?.headersSent) socket.write(clientErrorResponse(error));
  socket.destroy();
}
