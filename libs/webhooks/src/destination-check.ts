import { checkWebhookUrl, DestinationRefused, DestinationRules, HostResolver, resolveDestination, systemResolver } from './destination';
import { withTimeout } from './timeout';

/** Injection token for the resolver create and update use (tests answer with their own addresses). */
export const WEBHOOK_HOST_RESOLVER = Symbol('WEBHOOK_HOST_RESOLVER');
export const systemHostResolverProvider = { provide: WEBHOOK_HOST_RESOLVER, useValue: systemResolver };

const RESOLVE_TIMEOUT_MS = 2000;

/**
 * The create/update check of a destination: the URL rules, then the host's current addresses; throws
 * `DestinationRefused` (the service answers it as a 400 naming the field). A host that does not resolve now (or not
 * within two seconds) is accepted, as it may be set up later: the worker checks the addresses again before every attempt.
 */
export async function checkNewDestination(raw: string, rules: DestinationRules, resolve: HostResolver): Promise<void> {
  const url = checkWebhookUrl(raw, rules);
  await resolveDestination(url, rules, (host) => withTimeout(resolve(host), RESOLVE_TIMEOUT_MS, 'resolving the host')).catch((error: unknown) => {
    if (error instanceof DestinationRefused && !/has no address/.test(error.message)) throw error;
  });
}
