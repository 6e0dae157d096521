import { LastUsedRecorder } from './last-used-recorder';

describe('LastUsedRecorder', () => {
  const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms);

  function recorder(touch: (id: string, at: Date, staleBefore: Date) => Promise<void>, intervalMs?: number) {
    const errors: unknown[] = [];
    return { errors, recorder: new LastUsedRecorder(touch, (error) => errors.push(error), intervalMs) };
  }

  it('writes at most once per interval per credential, passing the staleness bound', () => {
    const writes: [string, number, number][] = [];
    const { recorder: r } = recorder(
      async (id, when, staleBefore) => void writes.push([id, when.getTime() - at(0).getTime(), staleBefore.getTime() - at(0).getTime()]),
      1_000,
    );
    r.record('key_a', at(0));
    r.record('key_a', at(999));
    r.record('key_b', at(500));
    r.record('key_a', at(1_000));
    r.record('key_a', at(1_500));
    expect(writes).toEqual([
      ['key_a', 0, -1_000],
      ['key_b', 500, -500],
      ['key_a', 1_000, 0],
    ]);
  });

  it('defaults to one write a minute', () => {
    const writes: Date[] = [];
    const { recorder: r } = recorder(async (_id, when) => void writes.push(when));
    r.record('key_a', at(0));
    r.record('key_a', at(59_999));
    r.record('key_a', at(60_000));
    expect(writes).toEqual([at(0), at(60_000)]);
  });

  it('hands a failed write to onError instead of throwing', async () => {
    const failure = new Error('database away');
    const { recorder: r, errors } = recorder(() => Promise.reject(failure));
    expect(() => r.record('key_a', at(0))).not.toThrow();
    await new Promise((resolve) => setImmediate(resolve));
    expect(errors).toEqual([failure]);
  });

  it('forgets what it remembered once it holds more than 100 000 credentials', () => {
    const writes: string[] = [];
    const { recorder: r } = recorder(async (id) => void writes.push(id));
    for (let i = 0; i <= 100_000; i++) r.record(`key_${i}`, at(0));
    writes.length = 0;
    r.record('key_0', at(1));
    expect(writes).toEqual([]);
    // The 100 002nd credential clears the map, so key_0 is written again within its interval.
    r.record('key_new', at(1));
    r.record('key_0', at(2));
    r.record('key_new', at(3));
    expect(writes).toEqual(['key_new', 'key_0']);
  });
});
