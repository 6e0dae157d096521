import { addressRange, checkWebhookUrl, DestinationRefused, resolveDestination } from './destination';

// Production's rules, and a development or test setup's with loopback receivers allowed.
const strict = { allowLoopback: false, allowPublic: true };
const loose = { allowLoopback: true, allowPublic: true };
const loopbackOnly = { allowLoopback: true, allowPublic: false };

describe('webhook destinations', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['0.0.0.0', 'unspecified'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['198.51.100.10', 'reserved'],
    ['203.0.113.10', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fd00::1', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['64:ff9b::a00:1', 'rfc6052'],
    ['2002:a00::1', '6to4'],
    ['2001::1', 'teredo'],
    ['2001:db8::1', 'reserved'],
  ])('refuses %s (%s) as a literal host', (address, range) => {
    expect(addressRange(address)).toBe(range);
    const host = address.includes(':') ? `[${address}]` : address;
    expect(() => checkWebhookUrl(`https://${host}/hook`, strict)).toThrow(DestinationRefused);
  });

  it('accepts public addresses and names over https', () => {
    expect(checkWebhookUrl('https://8.8.8.8/hook', strict).hostname).toBe('8.8.8.8');
    expect(checkWebhookUrl('https://[2606:4700::1]:8443/hook', strict).port).toBe('8443');
    expect(checkWebhookUrl('https://example.com/mailrith/events', strict).hostname).toBe('example.com');
  });

  it('refuses plain http, credentials, non-URLs and loopback names', () => {
    for (const url of [
      'http://example.com/hook',
      'https://user:pass@example.com/',
      'ftp://example.com/',
      'not a url',
      'https://localhost/hook',
      'https://a.localhost/',
    ]) {
      expect(() => checkWebhookUrl(url, strict)).toThrow(DestinationRefused);
    }
  });

  it('allows loopback, over http too, only when the rules say so', () => {
    expect(checkWebhookUrl('http://127.0.0.1:3000/hook', loose).port).toBe('3000');
    expect(checkWebhookUrl('https://localhost:3000/hook', loose).hostname).toBe('localhost');
    expect(() => checkWebhookUrl('http://example.com/hook', loose)).toThrow('https');
    expect(() => checkWebhookUrl('https://10.0.0.1/hook', loose)).toThrow('private-network');
  });

  it('refuses a name when any of its addresses is not public, and returns the checked addresses', async () => {
    const answers = (addresses: string[]) => async () => addresses;
    const url = new URL('https://hooks.example.com/x');
    await expect(resolveDestination(url, strict, answers(['93.184.216.34']))).resolves.toEqual(['93.184.216.34']);
    await expect(resolveDestination(url, strict, answers(['93.184.216.34', '10.0.0.8']))).rejects.toThrow('10.0.0.8, a private-network address');
    await expect(resolveDestination(url, strict, answers(['::ffff:169.254.169.254']))).rejects.toThrow('link-local');
    await expect(resolveDestination(url, strict, answers([]))).rejects.toThrow('has no address');
    await expect(resolveDestination(new URL('https://localhost:1/'), strict)).rejects.toThrow('loopback');
  });

  it('outside production connects to nothing but loopback, and refuses a name before looking it up', async () => {
    for (const url of ['https://8.8.8.8/hook', 'https://[2606:4700::1]/hook', 'https://example.com/hook', 'https://hooks.example.com/x']) {
      expect(() => checkWebhookUrl(url, loopbackOnly)).toThrow('only to loopback addresses');
    }
    expect(checkWebhookUrl('http://127.0.0.1:3000/hook', loopbackOnly).port).toBe('3000');
    expect(checkWebhookUrl('http://localhost:3000/hook', loopbackOnly).hostname).toBe('localhost');
    const lookups: string[] = [];
    const resolve = async (host: string) => (lookups.push(host), ['93.184.216.34']);
    await expect(resolveDestination(new URL('https://127.0.0.1/x'), loopbackOnly, resolve)).resolves.toEqual(['127.0.0.1']);
    await expect(resolveDestination(new URL('https://localhost/x'), loopbackOnly, resolve)).rejects.toThrow('only to loopback addresses');
    expect(lookups).toEqual(['localhost']);
  });
});
