import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { FormsErrors } from '@forms/contracts';

/** Form and file ids as they appear in keys (and directory names). */
const SAFE_NAME = /^[A-Za-z0-9_]+$/;

/** What storing a file learned on the way: its size and SHA-256 (hex). */
export interface StoredFile {
  size: number;
  sha256: string;
}

export const fileTooLarge = (maxBytes: number) =>
  FormsErrors.fail('payload_too_large', `The file is larger than ${maxBytes} bytes, the most an upload may be.`, { details: { field: 'body' } });

/**
 * Where a form's files live: uploads, and the spreadsheet exports of its submissions. `write` streams: a file is never
 * held whole in memory, the size cap holds while the bytes arrive, and a refused or broken write leaves nothing
 * behind. Keys are `<form id>/<upload or export id>`.
 */
export abstract class UploadStorage {
  abstract write(key: string, source: Readable, maxBytes: number): Promise<StoredFile>;
  /** The file's bytes, or null when no file is stored under the key. */
  abstract read(key: string): Promise<Readable | null>;
  /** Removes the file; a key with no file is not an error. */
  abstract remove(key: string): Promise<void>;
  /** The forms that have files stored. */
  abstract formIds(): Promise<string[]>;
  /** Removes every file of a form (a deleted form's rows go with it; its files go here). */
  abstract removeForm(formId: string): Promise<void>;
}

/** Counts and hashes the bytes passing through, failing once they pass `maxBytes`. */
function meter(maxBytes: number): Transform & { stored(): StoredFile } {
  const hash = createHash('sha256');
  let size = 0;
  const transform = new Transform({
    transform(chunk: Buffer, _encoding, next) {
      size += chunk.length;
      if (size > maxBytes) return next(fileTooLarge(maxBytes));
      hash.update(chunk);
      next(null, chunk);
    },
  });
  return Object.assign(transform, { stored: () => ({ size, sha256: hash.digest('hex') }) });
}

/**
 * UploadStorage on the local disk, under FORMS_UPLOAD_DIR. A file appears under its key only once it is complete; a
 * write truncates the partial file a crashed earlier write of the same key left, so writing a key again (a rerun
 * export job) replaces it.
 */
@Injectable()
export class LocalDiskUploadStorage extends UploadStorage {
  private readonly root: string;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    super();
    this.root = resolve(config.formsUploadDir);
  }

  async write(key: string, source: Readable, maxBytes: number): Promise<StoredFile> {
    const path = this.pathOf(key);
    const partial = `${path}.partial`;
    await mkdir(dirname(path), { recursive: true });
    const metered = meter(maxBytes);
    // Piped rather than put in the pipeline: refusing the file must not destroy the request, which still gets its answer.
    const abort = (error: Error) => metered.destroy(error);
    source.once('error', abort);
    source.pipe(metered);
    try {
      await pipeline(metered, createWriteStream(partial));
      await rename(partial, path);
      return metered.stored();
    } catch (error) {
      source.unpipe(metered);
      await rm(partial, { force: true });
      throw error;
    } finally {
      source.off('error', abort);
    }
  }

  async read(key: string): Promise<Readable | null> {
    try {
      return (await open(this.pathOf(key))).createReadStream();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async formIds(): Promise<string[]> {
    const entries = await readdir(this.root, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    });
    return entries.filter((entry) => entry.isDirectory() && SAFE_NAME.test(entry.name)).map((entry) => entry.name);
  }

  async removeForm(formId: string): Promise<void> {
    if (!SAFE_NAME.test(formId)) throw new Error(`not a form id: ${formId}`);
    await rm(resolve(this.root, formId), { recursive: true, force: true });
  }

  private pathOf(key: string): string {
    const [formId, uploadId, ...rest] = key.split('/');
    if (rest.length || !SAFE_NAME.test(formId) || !SAFE_NAME.test(uploadId ?? '')) throw new Error(`not an upload storage key: ${key}`);
    return resolve(this.root, key);
  }
}

/** The storage every module of this domain uses (local disk; another backend would be chosen here). */
export const uploadStorageProvider = { provide: UploadStorage, useClass: LocalDiskUploadStorage };
