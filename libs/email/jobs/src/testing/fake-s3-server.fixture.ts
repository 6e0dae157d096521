import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { LoopbackHttpServer, startLoopbackHttpServer } from '@shared/testing';

/** An upload in progress: its parts by number. */
interface MultipartUpload {
  key: string;
  parts: Map<number, Buffer>;
}

/** What the fake saw, for assertions. */
export interface FakeS3Request {
  method: string;
  key: string;
  operation: string;
  authorization: string;
}

const xml = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;
const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * A small S3 on loopback, path-style only (`/<bucket>/<key>`), for tests of the S3 job files: PutObject,
 * CreateMultipartUpload / UploadPart / CompleteMultipartUpload / AbortMultipartUpload, GetObject, DeleteObject and
 * ListObjectsV2 (with `max-keys` and continuation tokens), answering as S3's API reference describes. A request
 * without a SigV4 Authorization header for `accessKeyId` is refused with 403, as S3 would.
 */
export class FakeS3Server {
  readonly objects = new Map<string, Buffer>();
  readonly uploads = new Map<string, MultipartUpload>();
  readonly requests: FakeS3Request[] = [];
  /** While set, every PutObject and UploadPart is refused with 403 AccessDenied, as a bucket whose policy changed. */
  refuseWrites = false;
  private server?: LoopbackHttpServer;

  /** `listPageSize` caps a ListObjectsV2 page below the asked `max-keys`, as S3 may, so callers must follow tokens. */
  constructor(
    readonly bucket: string,
    private readonly accessKeyId: string,
    private readonly listPageSize = 1000,
  ) {}

  async start(): Promise<string> {
    this.server = await startLoopbackHttpServer((request, response) => void this.handle(request, response));
    return this.server.url;
  }

  async stop(): Promise<void> {
    await this.server?.stop();
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => resolve(Buffer.concat(chunks)));
      request.on('error', reject);
    });
    const url = new URL(request.url ?? '/', 'http://fake');
    const [, bucket, ...rest] = url.pathname.split('/');
    const key = decodeURIComponent(rest.join('/'));
    const query = url.searchParams;
    const authorization = request.headers.authorization ?? '';
    const reply = (status: number, text = '', headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'application/xml', ...headers });
      response.end(text);
    };
    const error = (status: number, code: string) => reply(status, xml(`<Error><Code>${code}</Code><Message>${code}</Message></Error>`));
    const operation = this.operationOf(request.method ?? '', key, query);
    this.requests.push({ method: request.method ?? '', key, operation, authorization });

    if (!authorization.startsWith(`AWS4-HMAC-SHA256 Credential=${this.accessKeyId}/`)) return error(403, 'InvalidAccessKeyId');
    if (bucket !== this.bucket) return error(404, 'NoSuchBucket');
    if (this.refuseWrites && (operation === 'PutObject' || operation === 'UploadPart')) return error(403, 'AccessDenied');
    switch (operation) {
      case 'PutObject':
        this.objects.set(key, body);
        return reply(200, '', { etag: `"${randomUUID()}"` });
      case 'CreateMultipartUpload': {
        const uploadId = randomUUID();
        this.uploads.set(uploadId, { key, parts: new Map() });
        return reply(
          200,
          xml(
            `<InitiateMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${escapeXml(key)}</Key><UploadId>${uploadId}</UploadId></InitiateMultipartUploadResult>`,
          ),
        );
      }
      case 'UploadPart': {
        const upload = this.uploads.get(query.get('uploadId') ?? '');
        if (!upload) return error(404, 'NoSuchUpload');
        upload.parts.set(Number(query.get('partNumber')), body);
        return reply(200, '', { etag: `"part-${query.get('partNumber')}"` });
      }
      case 'CompleteMultipartUpload': {
        const uploadId = query.get('uploadId') ?? '';
        const upload = this.uploads.get(uploadId);
        if (!upload) return error(404, 'NoSuchUpload');
        const numbers = [...body.toString('utf8').matchAll(/<PartNumber>(\d+)<\/PartNumber>/g)].map((match) => Number(match[1]));
        if (!numbers.length || numbers.some((n) => !upload.parts.has(n))) return error(400, 'InvalidPart');
        this.objects.set(key, Buffer.concat(numbers.map((n) => upload.parts.get(n)!)));
        this.uploads.delete(uploadId);
        return reply(
          200,
          xml(`<CompleteMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${escapeXml(key)}</Key><ETag>"done"</ETag></CompleteMultipartUploadResult>`),
        );
      }
      case 'AbortMultipartUpload':
        this.uploads.delete(query.get('uploadId') ?? '');
        return reply(204);
      case 'GetObject': {
        const object = this.objects.get(key);
        if (!object) return error(404, 'NoSuchKey');
        response.writeHead(200, { 'content-type': 'text/csv', 'content-length': String(object.length) });
        return void response.end(object);
      }
      case 'DeleteObject':
        this.objects.delete(key);
        return reply(204);
      case 'ListObjectsV2':
        return reply(200, xml(this.list(query)));
      default:
        return error(501, 'NotImplemented');
    }
  }

  private operationOf(method: string, key: string, query: URLSearchParams): string {
    if (!key) return method === 'GET' && query.get('list-type') === '2' ? 'ListObjectsV2' : 'Unknown';
    if (method === 'POST' && query.has('uploads')) return 'CreateMultipartUpload';
    if (method === 'POST' && query.has('uploadId')) return 'CompleteMultipartUpload';
    if (method === 'PUT' && query.has('uploadId')) return 'UploadPart';
    if (method === 'DELETE' && query.has('uploadId')) return 'AbortMultipartUpload';
    return { PUT: 'PutObject', GET: 'GetObject', DELETE: 'DeleteObject' }[method] ?? 'Unknown';
  }

  private list(query: URLSearchParams): string {
    const prefix = query.get('prefix') ?? '';
    const maxKeys = Math.min(Number(query.get('max-keys') ?? 1000), this.listPageSize);
    const after = query.get('continuation-token') ?? query.get('start-after') ?? '';
    const keys = [...this.objects.keys()].filter((key) => key.startsWith(prefix) && key > after).sort();
    const page = keys.slice(0, maxKeys);
    const truncated = keys.length > page.length;
    const contents = page.map((key) => `<Contents><Key>${escapeXml(key)}</Key><Size>${this.objects.get(key)!.length}</Size></Contents>`).join('');
    const next = truncated ? `<NextContinuationToken>${escapeXml(page[page.length - 1])}</NextContinuationToken>` : '';
    return `<ListBucketResult><Name>${this.bucket}</Name><Prefix>${escapeXml(prefix)}</Prefix><KeyCount>${page.length}</KeyCount><MaxKeys>${maxKeys}</MaxKeys><IsTruncated>${truncated}</IsTruncated>${contents}${next}</ListBucketResult>`;
  }
}
