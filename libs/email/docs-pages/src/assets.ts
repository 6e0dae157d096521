import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { DOCS_CSS, REFERENCE_INIT_JS } from './browser-files';

/** A static file, named after a hash of its content so it can be cached for a year. */
export class StaticAsset {
  readonly fileName: string;
  readonly etag: string;
  readonly body: Buffer;
  readonly contentType: string;
  private compressed?: Buffer;

  constructor(baseName: string, extension: 'css' | 'js', content: string) {
    this.body = Buffer.from(content);
    const hash = createHash('sha256').update(this.body).digest('hex');
    this.fileName = `${baseName}.${hash.slice(0, 12)}.${extension}`;
    this.etag = `"${hash.slice(0, 32)}"`;
    this.contentType = extension === 'css' ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8';
  }

  /** The gzip encoding, made on first use (the Swagger UI bundle is about 1.5 MB plain, a third of that compressed). */
  gzip(): Buffer {
    return (this.compressed ??= gzipSync(this.body));
  }
}

/** A file of the swagger-ui-dist package without its source-map comment (the map is not served). */
function swaggerUiFile(name: string): string {
  const dir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  return readFileSync(path.join(dir, name), 'utf8').replace(/\n?(\/\/# sourceMappingURL=\S+|\/\*# sourceMappingURL=[^*]+\*\/)\s*$/, '\n');
}

/** Everything the pages load: the site stylesheet, and Swagger UI with its start script for the API reference. */
export class DocsAssets {
  readonly siteCss = new StaticAsset('docs', 'css', DOCS_CSS);
  readonly swaggerCss = new StaticAsset('swagger-ui', 'css', swaggerUiFile('swagger-ui.css'));
  readonly swaggerJs = new StaticAsset('swagger-ui-bundle', 'js', swaggerUiFile('swagger-ui-bundle.js'));
  readonly referenceJs = new StaticAsset('reference', 'js', REFERENCE_INIT_JS);
  private readonly byName = new Map([this.siteCss, this.swaggerCss, this.swaggerJs, this.referenceJs].map((asset) => [asset.fileName, asset]));

  find(fileName: string): StaticAsset | undefined {
    return this.byName.get(fileName);
  }
}
