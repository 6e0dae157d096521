import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export interface DestinationRules {
  /** Loopback addresses (and plain HTTP to them) are allowed: tests and local development only. */
  allowLoopback: boolean;
  /** Public addresses are allowed (config `ALLOW_NON_LOOPBACK_HOSTS`): off outside production, where nothing may leave the machine. */
  allowPublic: boolean;
}

/** The rules a deployment's configuration sets. */
export const destinationRules = (config: { allowNonLoopbackHosts: boolean; webhooks: { allowLoopback: boolean } }): DestinationRules => ({
  allowLoopback: config.webhooks.allowLoopback,
  allowPublic: config.allowNonLoopbackHosts,
});

const LOOPBACK_ONLY = 'This server connects only to loopback addresses (ALLOW_NON_LOOPBACK_HOSTS is off, as it is outside production).';

/** Resolves a host name to every address it has (node's dns.lookup by default; tests answer their own). */
export type HostResolver = (hostname: string) => Promise<string[]>;

export const systemResolver: HostResolver = async (hostname) => (await dnsLookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/** A destination refused, with the reason a person can act on. */
export class DestinationRefused extends Error {}

/**
 * The range an address falls in (ipaddr.js's names: `unicast` for a public address, else `private`, `loopback`,
 * `linkLocal`, `carrierGradeNat`, `uniqueLocal`, `reserved` (documentation and benchmarking ranges included),
 * `multicast`, `6to4`, `teredo`, `rfc6052`, …). IPv4-mapped IPv6 addresses are classified as the IPv4 address.
 */
export function addressRange(address: string): string {
  return ipaddr.process(address).range();
}

/** Only public unicast addresses (when the rules allow them) and loopback (when they say so) are allowed. */
export function checkAddress(address: string, rules: DestinationRules): void {
  const range = addressRange(address);
  if ((range === 'unicast' && rules.allowPublic) || (range === 'loopback' && rules.allowLoopback)) return;
  if (range === 'unicast') throw new DestinationRefused(LOOPBACK_ONLY);
  throw new DestinationRefused(`The destination resolves to ${address}, a ${describeRange(range)} address; only public addresses are allowed.`);
}

const RANGE_WORDS: Record<string, string> = {
  private: 'private-network',
  loopback: 'loopback',
  linkLocal: 'link-local',
  carrierGradeNat: 'carrier-grade NAT',
  uniqueLocal: 'unique-local',
  unspecified: 'unspecified',
  multicast: 'multicast',
  broadcast: 'broadcast',
};
const describeRange = (range: string) => RANGE_WORDS[range] ?? `reserved (${range})`;

/** The host without IPv6 brackets. */
const bareHost = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Checks what can be checked without the network: an absolute HTTPS URL without credentials whose host, when it is
 * an address, is public. With loopback allowed, plain HTTP is accepted for a loopback host; with public addresses not
 * allowed, only loopback addresses and `localhost` names are.
 */
export function checkWebhookUrl(raw: string, rules: DestinationRules): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new DestinationRefused('The URL is not an absolute URL.');
  }
  if (url.username || url.password) throw new DestinationRefused('The URL must not carry a user name or password.');
  const host = bareHost(url);
  const loopbackHost = host === 'localhost' || (isIP(host) !== 0 && addressRange(host) === 'loopback');
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && rules.allowLoopback && loopbackHost)) {
    throw new DestinationRefused('The URL must use https.');
  }
  const localhostName = host === 'localhost' || host.endsWith('.localhost');
  if (isIP(host)) checkAddress(host, rules);
  else if (!rules.allowLoopback && localhostName) {
    throw new DestinationRefused('The destination is a loopback host; only public addresses are allowed.');
  } else if (!rules.allowPublic && !localhostName) {
    // Refused before any name lookup: resolving it would itself be traffic off the machine.
    throw new DestinationRefused(LOOPBACK_ONLY);
  }
  return url;
}

/**
 * Every address the URL's host has, each checked: one private answer among public ones refuses the destination
 * (a resolver may hand out any of them). The caller connects to one of exactly these addresses.
 */
export async function resolveDestination(url: URL, rules: DestinationRules, resolve: HostResolver = systemResolver): Promise<string[]> {
  const host = bareHost(url);
  const addresses = isIP(host) ? [host] : await resolve(host);
  if (!addresses.length) throw new DestinationRefused(`The host ${host} has no address.`);
  for (const address of addresses) checkAddress(address, rules);
  return addresses.map((address) => ipaddr.process(address).toString());
}
