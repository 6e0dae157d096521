import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { withTimeout } from './timeout';
import { checkWebhookUrl, DestinationRefused, DestinationRules, HostResolver, resolveDestination, systemResolver } from './destination';

/** How one attempt went: `ok` only for a 2xx answer. `error` is safe to show the subscription's owner. */
export interface AttemptResult {
  ok: boolean;
  status: number | null;
  error: string | null;
}

export interface SafeWebhookClientOptions extends DestinationRules {
  /** Bounds the whole attempt: resolving, connecting, sending and the answer. */
  timeoutMs: number;
  resolve?: HostResolver;
  /** Extra certificate authorities to trust (tests' local HTTPS receivers). */
  ca?: string | Buffer;
}

const MAX_ANSWER_BYTES = 64 * 1024;

const failed = (error: string, status: number | null = null): AttemptResult => ({ ok: false, status, error });

/**
 * POSTs a webhook to a URL without giving it a way to reach an internal address: the host is resolved once, every
 * address it has is checked, and the connection goes to exactly the checked address (TLS still verifies the URL's
 * host name through SNI), so a DNS answer that changes after the check is never used. Redirects are answers like
 * any other non-2xx: never followed.
 */
export class SafeWebhookClient {
  private readonly httpsAgent: https.Agent;
  private readonly httpAgent = new http.Agent({ keepAlive: true });
  private readonly resolve: HostResolver;

  constructor(private readonly options: SafeWebhookClientOptions) {
    this.httpsAgent = new https.Agent({ keepAlive: true, ...(options.ca ? { ca: options.ca } : {}) });
    this.resolve = cachedResolver(options.resolve ?? systemResolver);
  }

  async post(rawUrl: string, headers: Record<string, string>, body: string): Promise<AttemptResult> {
    const deadline = Date.now() + this.options.timeoutMs;
    let url: URL;
    let address: string;
    try {
      url = checkWebhookUrl(rawUrl, this.options);
      [address] = await withTimeout(resolveDestination(url, this.options, this.resolve), this.options.timeoutMs, 'resolving the host');
    } catch (error) {
      if (error instanceof DestinationRefused) return failed(error.message);
      return failed(`The host could not be resolved (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
    }
    return this.send(url, address, headers, body, Math.max(1, deadline - Date.now()));
  }

  close(): void {
    this.httpsAgent.destroy();
    this.httpAgent.destroy();
  }

  private send(url: URL, address: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<AttemptResult> {
    const secure = url.protocol === 'https:';
    const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
    return new Promise((resolve) => {
      const request = (secure ? https : http).request(
        {
          host: address,
          port: url.port || (secure ? 443 : 80),
          path: `${url.pathname}${url.search}`,
          method: 'POST',
          agent: secure ? this.httpsAgent : this.httpAgent,
          ...(secure && !isIP(hostname) ? { servername: hostname } : {}),
          headers: {
            ...headers,
            host: url.host,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            'user-agent': 'Postline-Webhooks/1',
          },
          signal: AbortSignal.timeout(timeoutMs),
        },
        (response) => {
          let read = 0;
          response.on('data', (chunk: Buffer) => {
            read += chunk.length;
            if (read > MAX_ANSWER_BYTES) response.destroy();
          });
          const status = response.statusCode ?? 0;
          const done = () =>
            resolve(status >= 200 && status < 300 ? { ok: true, status, error: null } : failed(describeStatus(status, response.headers.location), status));
          response.on('end', done);
          response.on('close', done);
          response.on('error', done);
        },
      );
      request.on('error', (error: NodeJS.ErrnoException) => {
        resolve(
          failed(
            error.name === 'AbortError' || error.name === 'TimeoutError'
              ? `No answer within ${timeoutMs} ms.`
              : `The connection failed (${error.code ?? error.message}).`,
          ),
        );
      });
      request.end(body);
    });
  }
}

function describeStatus(status: number, location: string | undefined): string {
  if (status >= 300 && status < 400 && location) return `The receiver answered ${status} (a redirect, which is not followed).`;
  return `The receiver answered ${status}.`;
}

/** How long a host's checked addresses are reused: one lookup per host and second, not one per attempt. */
const RESOLVED_TTL_MS = 1000;

/**
 * Reuses a host's answer briefly. Safe against rebinding: whatever the answer, every address in it is checked before
 * the connection goes to one of them.
 */
function cachedResolver(resolve: HostResolver): HostResolver {
  const answers = new Map<string, { addresses: Promise<string[]>; until: number }>();
  return (host) => {
    const now = Date.now();
    const cached = answers.get(host);
    if (cached && cached.until > now) return cached.addresses;
    if (answers.size > 10_000) answers.clear();
    const addresses = resolve(host);
    answers.set(host, { addresses, until: now + RESOLVED_TTL_MS });
    addresses.catch(() => answers.delete(host));
    return addresses;
  };
}
