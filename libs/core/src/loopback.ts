import { isIP } from 'node:net';

/** Whether `host` is a loopback name or address: outside production the services connect to nothing else. */
export function isLoopbackHost(host: string): boolean {
  const name = host
    .trim()
    .toLowerCase()
    .replace(/\.$/, '')
    .replace(/^\[(.*)\]$/, '$1');
  if (name === 'localhost') return true;
  const family = isIP(name);
  if (family === 4) return name.startsWith('127.');
  if (family === 6) {
    if (name === '::1' || name === '0:0:0:0:0:0:0:1') return true;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(name);
    return mapped !== null && mapped[1].startsWith('127.');
  }
  return false;
}
