import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { AppConfig } from '@shared/config';
import { FakeS3Server } from '../testing/fake-s3-server.fixture';
import { FileTooLargeError, jobFileKey } from './job-files';
import { S3JobFiles } from './s3-job-files';

const MiB = 1024 * 1024;
const BUCKET = 'postline-jobs';
const KEY_ID = 'AKIATESTKEY';

/** `bytes` of CSV-ish text in 64 KiB chunks, optionally failing after `failAfter` bytes. */
function source(bytes: number, failAfter?: number): Readable {
  return Readable.from(
    (function* () {
      for (let sent = 0; sent < bytes; sent += 65_536) {
        if (failAfter !== undefined && sent >= failAfter) throw new Error('the client went away');
        yield Buffer.alloc(Math.min(65_536, bytes - sent), `row ${sent}\n`);
      }
    })(),
  );
}

const digest = async (stream: Readable) => {
  const hash = createHash('sha256');
  let length = 0;
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    length += (chunk as Buffer).length;
  }
  return { length, sha256: hash.digest('hex') };
};

describe('S3JobFiles against a fake S3 on loopback', () => {
  const fake = new FakeS3Server(BUCKET, KEY_ID, 2);
  let files: S3JobFiles;
  let endpoint: string;

  const filesWith = (s3: Partial<AppConfig['subscriberJobs']['s3']>) =>
    new S3JobFiles({
      subscriberJobs: {
        filesDir: '.unused',
        importMaxBytes: 0,
        importBatchRows: 1,
        importWriters: 1,
        exportTtlHours: 1,
        storage: 's3',
        s3: {
          bucket: BUCKET,
          region: 'eu-central-1',
          endpoint,
          forcePathStyle: true,
          credentials: { accessKeyId: KEY_ID, secretAccessKey: 'secret-test-key' },
          keyPrefix: 'install-a/',
          ...s3,
        },
      },
    });

  beforeAll(async () => {
    endpoint = await fake.start();
    files = filesWith({});
  });
  afterAll(async () => {
    files.onModuleDestroy();
    await fake.stop();
  });

  it('stores a small file in one PutObject under the key prefix, reads it back, lists it and removes it', async () => {
    const key = jobFileKey('exports', 'wsp_1', 'exp_1');
    expect(await files.write(key, Readable.from([Buffer.from('id,email\nsub_1,a@example.com\n')]))).toBe(29);
    expect([...fake.objects.keys()]).toEqual(['install-a/exports/wsp_1/exp_1.csv']);
    expect(fake.requests.map((request) => request.operation)).toEqual(['PutObject']);
    expect((await digest((await files.read(key))!)).length).toBe(29);
    expect(await files.list('exports')).toEqual([key]);
    expect(await files.list('imports')).toEqual([]);

    await files.remove(key);
    expect(await files.read(key)).toBeNull();
    await expect(files.remove(key)).resolves.toBeUndefined();
  });

  it('streams a large file as a multipart upload: parts, then complete', async () => {
    const key = jobFileKey('imports', 'wsp_1', 'imu_big');
    fake.requests.length = 0;
    const written = await files.write(key, source(20 * MiB));
    expect(written).toBe(20 * MiB);
    const operations = fake.requests.map((request) => request.operation);
    expect(operations[0]).toBe('CreateMultipartUpload');
    expect(operations.filter((operation) => operation === 'UploadPart')).toHaveLength(3);
    expect(operations.at(-1)).toBe('CompleteMultipartUpload');
    expect(await digest((await files.read(key))!)).toEqual(await digest(source(20 * MiB)));
    expect(fake.uploads.size).toBe(0);
  });

  it('refuses a file past its byte cap, and a source that fails, leaving no object and no open upload', async () => {
    const small = jobFileKey('imports', 'wsp_1', 'imu_small_cap');
    await expect(files.write(small, source(100_000), 1000)).rejects.toBeInstanceOf(FileTooLargeError);
    const big = jobFileKey('imports', 'wsp_1', 'imu_big_cap');
    await expect(files.write(big, source(20 * MiB), 9 * MiB)).rejects.toBeInstanceOf(FileTooLargeError);
    const broken = jobFileKey('imports', 'wsp_1', 'imu_broken');
    await expect(files.write(broken, source(20 * MiB, 10 * MiB))).rejects.toThrow('the client went away');
    expect(fake.requests.some((request) => request.operation === 'AbortMultipartUpload')).toBe(true);
    for (const key of [small, big, broken]) expect(await files.read(key)).toBeNull();
    expect(fake.uploads.size).toBe(0);
  });

  it('lists every key of a kind across pages, and only keys this install owns', async () => {
    for (const id of ['exp_a', 'exp_b', 'exp_c']) await files.write(jobFileKey('exports', 'wsp_2', id), Readable.from([Buffer.from('x')]));
    fake.objects.set('install-b/exports/wsp_2/exp_other.csv', Buffer.from('x'));
    fake.objects.set('install-a/exports/wsp_2/not-a-job-file.txt', Buffer.from('x'));
    expect((await files.list('exports')).sort()).toEqual(['exports/wsp_2/exp_a.csv', 'exports/wsp_2/exp_b.csv', 'exports/wsp_2/exp_c.csv']);
  });

  it('signs every request with the configured credentials, and refused credentials fail the call', async () => {
    expect(fake.requests.every((request) => request.authorization.includes(`Credential=${KEY_ID}/`))).toBe(true);
    const stranger = filesWith({ credentials: { accessKeyId: 'AKIAOTHER', secretAccessKey: 'other-secret' } });
    await expect(stranger.read(jobFileKey('exports', 'wsp_2', 'exp_a'))).rejects.toThrow();
    stranger.onModuleDestroy();
  });
});
