import { isDependencyOutage } from './unavailable';

// Edge cases beside unavailable.spec.ts: the anchors of each pattern and the guards on field types.
const errorWith = (fields: Record<string, unknown>) => Object.assign(new Error(typeof fields.message === 'string' ? fields.message : 'x'), fields);

describe('isDependencyOutage edges', () => {
  it.each([
    ['an unwritable Redis stream', errorWith({ message: "Stream isn't writeable and enableOfflineQueue options is false" })],
    ['the pg adapter out of connections', errorWith({ meta: { driverAdapterError: { cause: { kind: 'TooManyConnections' } } } })],
    ['a reset socket', errorWith({ code: 'ECONNRESET' })],
    ['the connection-exception SQLSTATE class', errorWith({ code: '08006', severity: 'FATAL' })],
    ['the pg connect timeout', errorWith({ message: 'timeout exceeded when trying to connect' })],
  ])('recognises %s', (_case, error) => {
    expect(isDependencyOutage(error)).toBe(true);
  });

  it.each([
    ['null', null],
    ['a number', 503],
    ['an outage SQLSTATE without a server severity', errorWith({ code: '08006' })],
    ['an outage phrase inside a longer Redis message', errorWith({ message: 'user said: Command timed out' })],
    ['a numeric code', errorWith({ code: 1001 })],
    ['an unrelated error name', errorWith({ name: 'ReplyError' })],
    ['a non-string message', Object.assign(Object.create(null), { message: 42 })],
  ])('does not mistake %s for an outage', (_case, error) => {
    expect(isDependencyOutage(error)).toBe(false);
  });
});
