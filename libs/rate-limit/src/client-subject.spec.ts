import { clientSubject } from './client-subject';

describe('clientSubject', () => {
  it('keeps IPv4 addresses, and unwraps IPv4-mapped IPv6 ones', () => {
    expect(clientSubject('198.51.100.7')).toBe('198.51.100.7');
    expect(clientSubject('::ffff:198.51.100.7')).toBe('198.51.100.7');
  });

  it('counts an IPv6 address by its /64, however it is written', () => {
    const subject = '2001:db8:aa:1::/64';
    expect(clientSubject('2001:db8:aa:1::1')).toBe(subject);
    expect(clientSubject('2001:0db8:00aa:0001:ffff:1:2:3')).toBe(subject);
    expect(clientSubject('2001:DB8:AA:1:0:0:0:9')).toBe(subject);
    expect(clientSubject('2001:db8:aa:2::1')).not.toBe(subject);
    expect(clientSubject('::1')).toBe('0:0:0:0::/64');
    expect(clientSubject('2001:db8::')).toBe('2001:db8:0:0::/64');
  });

  it('leaves anything else as it is', () => {
    expect(clientSubject('unknown')).toBe('unknown');
  });
});
