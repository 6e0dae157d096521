import { isLoopbackHost } from './loopback';

describe('isLoopbackHost', () => {
  it('knows the loopback names and addresses', () => {
    for (const host of ['localhost', 'LOCALHOST.', '127.0.0.1', '127.5.6.7', '::1', '[::1]', '::ffff:127.0.0.1']) expect(isLoopbackHost(host)).toBe(true);
    for (const host of ['localhost.example.com', '0.0.0.0', '::', '::ffff:10.0.0.1']) expect(isLoopbackHost(host)).toBe(false);
  });
});
