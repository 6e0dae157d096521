import { emailLane, ImportLanes, LaneBatch } from './import-lanes';
import { ImportRow, Rejection } from './import-mapping';

const row = (rowNumber: number, email: string): ImportRow => ({ rowNumber, email, customFields: {} });
const rejection = (rowNumber: number): Rejection => ({ rowNumber, column: 'email', code: 'invalid_email', reason: 'bad' });

/** Records every batch written, per lane, in the order the lanes were asked to write them. */
function recorder() {
  const written: Array<{ lane: number; batch: LaneBatch }> = [];
  return { written, write: async (lane: number, batch: LaneBatch) => void written.push({ lane, batch }) };
}

describe('ImportLanes', () => {
  it('puts every row of an email in the same lane, spreading emails over all lanes', () => {
    const lanes = new Set(Array.from({ length: 200 }, (_, i) => emailLane(`user${i}@example.com`, 3)));
    expect([...lanes].sort()).toEqual([0, 1, 2]);
    expect(emailLane('same@example.com', 3)).toBe(emailLane('same@example.com', 3));
    expect(emailLane('anyone@example.com', 1)).toBe(0);
  });

  it('writes each lane in batches that chain from one checkpoint to the next, in file order', async () => {
    const { written, write } = recorder();
    const lanes = new ImportLanes([0, 0], 2, write);
    const emails = ['a@x.io', 'b@x.io', 'c@x.io', 'a@x.io', 'd@x.io', 'e@x.io', 'a@x.io'];
    for (const [i, email] of emails.entries()) await lanes.add(row(i + 1, email));
    await lanes.add(rejection(8));
    await lanes.finish();

    const rowsWritten = written.flatMap(({ batch }) => [...batch.rows.map((r) => r.rowNumber), ...batch.rejections.map((r) => r.rowNumber)]);
    expect(rowsWritten.sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    for (const lane of [0, 1]) {
      const batches = written.filter((entry) => entry.lane === lane).map((entry) => entry.batch);
      batches.forEach((batch, i) => expect(batch.from).toBe(i ? batches[i - 1].through : 0));
      for (const batch of batches) expect(batch.rows.length + batch.rejections.length).toBeLessThanOrEqual(2);
    }
    // Every row of a@x.io is in one lane, in file order, so its last row is written last.
    const aRows = written.flatMap(({ batch }) => batch.rows.filter((r) => r.email === 'a@x.io').map((r) => r.rowNumber));
    expect(aRows).toEqual([1, 4, 7]);
  });

  it('skips the rows a lane had already committed when a job resumes', async () => {
    const { written, write } = recorder();
    const emails = Array.from({ length: 10 }, (_, i) => `user${i}@example.com`);
    const resumeAt = [0, 0];
    for (const [i, email] of emails.entries()) if (i < 6 && emailLane(email, 2) === 0) resumeAt[0] = i + 1;
    const lanes = new ImportLanes(resumeAt, 100, write);
    for (const [i, email] of emails.entries()) await lanes.add(row(i + 1, email));
    await lanes.finish();
    const expected = emails.flatMap((email, i) => (emailLane(email, 2) === 1 || i >= 6 ? [i + 1] : []));
    expect(written.flatMap(({ batch }) => batch.rows.map((r) => r.rowNumber)).sort((x, y) => x - y)).toEqual(expected);
    expect(written.find(({ lane }) => lane === 0)?.batch.from).toBe(resumeAt[0]);
  });

  it('stops taking rows once a lane failed to write, and reports that failure', async () => {
    const failure = new Error('database gone');
    const lanes = new ImportLanes([0], 1, async () => {
      throw failure;
    });
    await lanes.add(row(1, 'a@x.io'));
    await expect(lanes.add(row(2, 'b@x.io'))).rejects.toBe(failure);
    expect(lanes.failed(failure)).toBe(true);
    expect(lanes.failed(new Error('file'))).toBe(false);
    await expect(lanes.finish()).rejects.toBe(failure);
  });
});
