import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, paginateListObjectsV2, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { Readable } from 'node:stream';
import { APP_CONFIG, AppConfig, SubscriberJobFilesS3Settings } from '@shared/config';
import { byteCap, FileTooLargeError, isJobFileKey, JobFiles } from './job-files';

/** Multipart part size: S3's minimum (5 MiB) plus room; at most two parts are in memory at once. */
const PART_BYTES = 8 * 1024 * 1024;

/**
 * JobFiles in an S3-compatible bucket (AWS SDK v3). Writes stream as a multipart upload (lib-storage), so a file is
 * never held whole, and the object exists only once the upload completes; a failed or refused write aborts it.
 */
@Injectable()
export class S3JobFiles extends JobFiles implements OnModuleDestroy {
  private readonly client: S3Client;
  private readonly settings: SubscriberJobFilesS3Settings;

  constructor(@Inject(APP_CONFIG) config: Pick<AppConfig, 'subscriberJobs'>) {
    super();
    this.settings = config.subscriberJobs.s3;
    this.client = new S3Client({
      region: this.settings.region,
      endpoint: this.settings.endpoint ?? undefined,
      forcePathStyle: this.settings.forcePathStyle,
      credentials: this.settings.credentials ?? undefined,
      // Checksums only where S3 requires them: several S3-compatible stores refuse the SDK's default trailing checksums.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async write(key: string, source: Readable, maxBytes = Number.MAX_SAFE_INTEGER): Promise<number> {
    const cap = byteCap(maxBytes);
    let refused: FileTooLargeError | undefined;
    cap.once('error', (error) => (refused = error instanceof FileTooLargeError ? error : undefined));
    // Piped rather than handed over: a refused file must not destroy an HTTP request, which still gets its answer.
    const abort = (error: Error) => cap.destroy(error);
    source.once('error', abort);
    source.pipe(cap);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.settings.bucket, Key: this.objectKey(key), Body: cap, ContentType: 'text/csv' },
      partSize: PART_BYTES,
      queueSize: 1,
    });
    try {
      await upload.done();
      return cap.bytes();
    } catch (error) {
      source.unpipe(cap);
      cap.destroy();
      throw refused ?? error;
    } finally {
      source.off('error', abort);
    }
  }

  async read(key: string): Promise<Readable | null> {
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }));
      return object.Body as Readable;
    } catch (error) {
      if (error instanceof NoSuchKey) return null;
      throw error;
    }
  }

  async remove(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }));
  }

  async list(kind: 'imports' | 'exports'): Promise<string[]> {
    const prefix = this.settings.keyPrefix;
    const keys: string[] = [];
    for await (const page of paginateListObjectsV2({ client: this.client }, { Bucket: this.settings.bucket, Prefix: `${prefix}${kind}/` })) {
      for (const object of page.Contents ?? []) {
        const key = object.Key?.slice(prefix.length);
        if (key && isJobFileKey(key)) keys.push(key);
      }
    }
    return keys;
  }

  onModuleDestroy(): void {
    this.client.destroy();
  }

  private objectKey(key: string): string {
    if (!isJobFileKey(key)) throw new Error(`not a job file key: ${key}`);
    return `${this.settings.keyPrefix}${key}`;
  }
}
