import type { EngagementEventInput, EngagementRepository } from '@email/audience-engine';
import { trustedWorkspaceId, WorkspaceId } from '@shared/core';
import { EngagementGroupCommit, EngagementWriteRefused } from './engagement-group-commit';

const A = trustedWorkspaceId('wsp_a');
const B = trustedWorkspaceId('wsp_b');
const open = (subscriberId: string): EngagementEventInput => ({ subscriberId, type: 'opened', occurredAt: new Date() });

/** A writer whose transactions commit (or fail) only when the test says so. */
function heldWriter() {
  const calls: Array<{ workspaceId: WorkspaceId; ids: string[]; commit: () => void; fail: (error: Error) => void }> = [];
  const writer = {
    record: (workspaceId: WorkspaceId, events: EngagementEventInput[]) =>
      new Promise((resolve, reject) => calls.push({ workspaceId, ids: events.map((event) => event.subscriberId), commit: () => resolve({}), fail: reject })),
  };
  return { calls, writer: writer as unknown as EngagementRepository };
}

const settled = <T>(promise: Promise<T>) =>
  promise.then(
    () => 'committed',
    (error: Error) => error.message,
  );
const tick = () => new Promise((resolve) => setImmediate(resolve));
/** Lets the group commit's scheduled flushes run (a few event-loop turns). */
const turns = async () => {
  for (let i = 0; i < 5; i++) await tick();
};

describe('EngagementGroupCommit', () => {
  it('resolves an event only when its transaction commits; events arriving meanwhile form the next batch', async () => {
    const { calls, writer } = heldWriter();
    const group = new EngagementGroupCommit(writer, { maxInFlight: 1 });
    const first = settled(group.record(A, open('s1')));
    await tick();
    const later = [group.record(A, open('s2')), group.record(A, open('s3'))].map(settled);
    await tick();
    expect(calls.map((call) => call.ids)).toEqual([['s1']]);

    let firstState = 'waiting';
    void first.then((state) => (firstState = state));
    await tick();
    expect(firstState).toBe('waiting');
    calls[0].commit();
    expect(await first).toBe('committed');
    await turns();
    expect(calls.map((call) => call.ids)).toEqual([['s1'], ['s2', 's3']]);
    calls[1].commit();
    expect(await Promise.all(later)).toEqual(['committed', 'committed']);
  });

  it('writes one transaction per workspace; a failed one fails only its own events', async () => {
    const { calls, writer } = heldWriter();
    const group = new EngagementGroupCommit(writer);
    const results = [group.record(A, open('a1')), group.record(B, open('b1')), group.record(A, open('a2'))].map(settled);
    await tick();
    expect(calls.map((call) => [call.workspaceId, call.ids])).toEqual([
      [A, ['a1', 'a2']],
      [B, ['b1']],
    ]);
    calls[0].fail(new Error('connection terminated'));
    calls[1].commit();
    expect(await Promise.all(results)).toEqual(['connection terminated', 'committed', 'connection terminated']);
  });

  it('refuses at once beyond maxWaiting, and on shutdown writes what waits before refusing more', async () => {
    const { calls, writer } = heldWriter();
    const group = new EngagementGroupCommit(writer, { maxInFlight: 1, maxWaiting: 2 });
    const inFlight = settled(group.record(A, open('s1')));
    await tick();
    const waiting = [group.record(A, open('s2')), group.record(A, open('s3'))].map(settled);
    await expect(group.record(A, open('s4'))).rejects.toBeInstanceOf(EngagementWriteRefused);

    let closed = false;
    const closing = group.onModuleDestroy().then(() => (closed = true));
    await expect(group.record(A, open('s5'))).rejects.toBeInstanceOf(EngagementWriteRefused);
    calls[0].commit();
    await inFlight;
    await turns();
    expect(closed).toBe(false);
    calls[1].commit();
    await closing;
    expect(await Promise.all(waiting)).toEqual(['committed', 'committed']);
  });
});
