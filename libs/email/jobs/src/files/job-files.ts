import { Inject, Injectable } from '@nestjs/common';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { APP_CONFIG, AppConfig } from '@shared/config';

/** A key is `<kind>/<workspace id>/<record id>.csv`: every part is an id, so no key can reach outside the root. */
const KEY = /^(imports|exports)\/[A-Za-z0-9_]+\/[A-Za-z0-9_]+\.csv$/;

export const isJobFileKey = (key: string): boolean => KEY.test(key);

/** Thrown while a write passes its byte cap; the partial file is gone by the time the caller sees it. */
export class FileTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The file is larger than ${maxBytes} bytes.`);
  }
}

/**
 * Where subscriber import uploads and export files live. Writes stream (a file is never held whole in memory) and
 * appear under their key only once complete; a failed write leaves nothing behind. Local disk (LocalDiskJobFiles) or
 * an S3-compatible bucket (S3JobFiles), chosen by SUBSCRIBER_JOB_FILES_STORAGE in `jobFilesProvider`.
 */
export abstract class JobFiles {
  /** Stores `source` under `key`, failing with FileTooLargeError past `maxBytes`; returns the size written. */
  abstract write(key: string, source: Readable, maxBytes?: number): Promise<number>;
  /** The file's bytes, or null when none is stored under the key. */
  abstract read(key: string): Promise<Readable | null>;
  /** Removes the file; a missing file is not an error. */
  abstract remove(key: string): Promise<void>;
  /** Keys of the files of one kind, for the clean-up. */
  abstract list(kind: 'imports' | 'exports'): Promise<string[]>;
}

export const jobFileKey = (kind: 'imports' | 'exports', workspaceId: string, id: string): string => {
  const key = `${kind}/${workspaceId}/${id}.csv`;
  if (!KEY.test(key)) throw new Error(`not a job file key: ${key}`);
  return key;
};

/** Passes bytes through until more than `maxBytes` went by. */
export function byteCap(maxBytes: number): Transform & { bytes: () => number } {
  let bytes = 0;
  const cap = new Transform({
    transform(chunk: Buffer, _encoding, next) {
      bytes += chunk.length;
      next(bytes > maxBytes ? new FileTooLargeError(maxBytes) : null, chunk);
    },
  });
  return Object.assign(cap, { bytes: () => bytes });
}

/** JobFiles under SUBSCRIBER_JOB_FILES_DIR. */
@Injectable()
export class LocalDiskJobFiles extends JobFiles {
  private readonly root: string;

  constructor(@Inject(APP_CONFIG) config: Pick<AppConfig, 'subscriberJobs'>) {
    super();
    this.root = resolve(config.subscriberJobs.filesDir);
  }

  async write(key: string, source: Readable, maxBytes = Number.MAX_SAFE_INTEGER): Promise<number> {
    const path = this.pathOf(key);
    const partial = `${path}.${process.pid}.${Date.now()}.partial`;
    await mkdir(dirname(path), { recursive: true });
    const cap = byteCap(maxBytes);
    const sink: Writable = createWriteStream(partial, { flags: 'wx' });
    // Piped rather than put in the pipeline: a refused file must not destroy an HTTP request, which still gets its answer.
    const abort = (error: Error) => cap.destroy(error);
    source.once('error', abort);
    source.pipe(cap);
    try {
      await pipeline(cap, sink);
      await rename(partial, path);
      return cap.bytes();
    } catch (error) {
      source.unpipe(cap);
      await rm(partial, { force: true });
      throw error;
    } finally {
      source.off('error', abort);
    }
  }

  async read(key: string): Promise<Readable | null> {
    const path = this.pathOf(key);
    try {
      await stat(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    return createReadStream(path, { highWaterMark: 256 * 1024 });
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async list(kind: 'imports' | 'exports'): Promise<string[]> {
    const base = join(this.root, kind);
    const workspaces = await readdir(base).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? [] : Promise.reject(error)));
    const keys: string[] = [];
    for (const workspace of workspaces) {
      for (const name of await readdir(join(base, workspace)).catch(() => [] as string[])) {
        const key = `${kind}/${workspace}/${name}`;
        if (KEY.test(key)) keys.push(key);
      }
    }
    return keys;
  }

  private pathOf(key: string): string {
    if (!KEY.test(key)) throw new Error(`not a job file key: ${key}`);
    return join(this.root, key);
  }
}
