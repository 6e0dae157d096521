import { classifyOpen, FAST_OPEN_MS, MACHINE_OPEN_REASONS } from './machine-open';

const DELIVERED = new Date('2026-06-01T12:00:00.000Z');
const later = (ms: number) => new Date(DELIVERED.getTime() + ms);
/** An open an hour after delivery, so only the user agent decides. */
const openBy = (userAgent: string | null | undefined) => classifyOpen({ occurredAt: later(3_600_000), deliveredAt: DELIVERED, userAgent });

const PEOPLE: Array<[string, string]> = [
  ['Gmail (image proxy on a real open)', 'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)'],
  ['Apple Mail without Mail Privacy Protection', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)'],
  ['iPhone Mail', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148'],
  ['Outlook desktop', 'Mozilla/4.0 (compatible; ms-office; MSOffice 16)'],
  [
    'Outlook on the web in Chrome',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.0.0',
  ],
  ['Thunderbird', 'Mozilla/5.0 (X11; Linux x86_64; rv:115.0) Gecko/20100101 Thunderbird/115.10.1'],
  [
    'an Android phone whose model name ends in "bot"',
    'Mozilla/5.0 (Linux; Android 9; CUBOT P30) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/96.0 Mobile Safari/537.36',
  ],
];

const MACHINES: Array<[string, string, string]> = [
  ['Apple Mail Privacy Protection', 'Mozilla/5.0', 'apple_mail_privacy'],
  ['Apple Mail Privacy Protection, padded', '  mozilla/5.0 ', 'apple_mail_privacy'],
  ['Yahoo Mail proxy', 'YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html', 'yahoo_prefetch'],
  [
    'Gmail prefetch for an open session',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/42.0.2311.135 Safari/537.36 Edge/12.246 Mozilla/5.0',
    'gmail_prefetch',
  ],
  ['Barracuda', 'Barracuda Sentinel (EE)', 'security_scanner'],
  ['Mimecast', 'Mozilla/5.0 (compatible; Mimecast URL Protect)', 'security_scanner'],
  ['Proofpoint', 'Proofpoint URL Defense', 'security_scanner'],
  ['Microsoft SafeLinks naming itself', 'Microsoft SafeLinks Scanner', 'security_scanner'],
  ['Cisco IronPort', 'IronPort-WebSecurity', 'security_scanner'],
  ['curl', 'curl/8.5.0', 'automated_client'],
  ['python-requests', 'python-requests/2.31.0', 'automated_client'],
  ['headless Chrome', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36', 'automated_client'],
  ['a crawler', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'automated_client'],
];

describe('classifyOpen', () => {
  it.each(PEOPLE)('counts %s as a person', (_, userAgent) => {
    expect(openBy(userAgent)).toEqual({ machine: false, reason: null });
  });

  it.each(MACHINES)('flags %s', (_, userAgent, reason) => {
    expect(openBy(userAgent)).toEqual({ machine: true, reason });
  });

  it('takes a missing or empty user agent as no evidence', () => {
    for (const userAgent of [undefined, null, '', '   ']) expect(openBy(userAgent)).toEqual({ machine: false, reason: null });
  });

  it('flags an open less than the threshold after delivery, and not one at or past it', () => {
    const gmail = PEOPLE[0][1];
    expect(classifyOpen({ occurredAt: DELIVERED, deliveredAt: DELIVERED, userAgent: gmail })).toEqual({ machine: true, reason: 'opened_at_delivery' });
    expect(classifyOpen({ occurredAt: later(FAST_OPEN_MS - 1), deliveredAt: DELIVERED, userAgent: gmail })).toEqual({
      machine: true,
      reason: 'opened_at_delivery',
    });
    expect(classifyOpen({ occurredAt: later(FAST_OPEN_MS), deliveredAt: DELIVERED, userAgent: gmail })).toEqual({ machine: false, reason: null });
    expect(FAST_OPEN_MS).toBe(10_000);
  });

  it('flags an open before its delivery', () => {
    expect(classifyOpen({ occurredAt: later(-1), deliveredAt: DELIVERED })).toEqual({ machine: true, reason: 'opened_before_delivery' });
  });

  it('judges by the user agent alone without a delivery time', () => {
    expect(classifyOpen({ occurredAt: DELIVERED, deliveredAt: null, userAgent: PEOPLE[1][1] })).toEqual({ machine: false, reason: null });
    expect(classifyOpen({ occurredAt: DELIVERED })).toEqual({ machine: false, reason: null });
    expect(classifyOpen({ occurredAt: DELIVERED, userAgent: 'Mozilla/5.0' })).toEqual({ machine: true, reason: 'apple_mail_privacy' });
  });

  it('names the fetcher rather than the timing when both say machine', () => {
    expect(classifyOpen({ occurredAt: later(500), deliveredAt: DELIVERED, userAgent: 'Mozilla/5.0' })).toEqual({ machine: true, reason: 'apple_mail_privacy' });
  });

  it('only ever returns a listed reason code', () => {
    for (const [, userAgent, reason] of MACHINES) {
      expect(MACHINE_OPEN_REASONS).toContain(reason);
      expect(MACHINE_OPEN_REASONS).toContain(openBy(userAgent).reason);
    }
  });
});
