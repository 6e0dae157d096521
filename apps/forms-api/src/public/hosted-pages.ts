import { Injectable } from '@nestjs/common';
import { gzipSync } from 'node:zlib';
import { PublishedForm } from '@forms/forms';
import { HOSTED_FORM_CSP, hostedFormScript, renderHostedForm, renderUnavailablePage } from '@forms/hosted-page';

/** A response body kept ready in both encodings: compressed once, served many times. */
export interface EncodedBody {
  plain: Buffer;
  gzip: Buffer;
}

export interface RenderedPage {
  status: number;
  body: EncodedBody;
  csp: string;
}

const MAX_CACHED_PAGES = 2_000;

const encode = (text: string): EncodedBody => {
  const plain = Buffer.from(text);
  return { plain, gzip: gzipSync(plain) };
};

/** Hosted form pages, rendered and compressed once per published version and kept in memory. */
@Injectable()
export class HostedPages {
  private readonly pages = new Map<string, EncodedBody>();
  private scriptBody?: Promise<{ fileName: string; etag: string; body: EncodedBody }>;

  async render(form: PublishedForm | null): Promise<RenderedPage> {
    if (!form || !form.schema) return { status: 404, body: encode(renderUnavailablePage('This form does not exist or is not published yet.')), csp: HOSTED_FORM_CSP };
    if (form.status === 'closed') return { status: 200, body: encode(renderUnavailablePage(`${form.title} is closed and no longer accepts responses.`)), csp: HOSTED_FORM_CSP };
    const key = `${form.publicId}:${form.version}`;
    let body = this.pages.get(key);
    if (!body) {
      const script = await this.script();
      body = encode(
        renderHostedForm({
          formId: form.formId,
          publicId: form.publicId,
          title: form.title,
          publishedVersion: form.version,
          schema: form.schema,
          submitUrl: `/api/public/forms/${form.publicId}/submissions`,
          uploadUrl: `/api/public/forms/${form.publicId}/uploads`,
          scriptUrl: `/f/assets/${script.fileName}`,
        }),
      );
      if (this.pages.size >= MAX_CACHED_PAGES) this.pages.delete(this.pages.keys().next().value as string);
      this.pages.set(key, body);
    }
    return { status: 200, body, csp: HOSTED_FORM_CSP };
  }

  script(): Promise<{ fileName: string; etag: string; body: EncodedBody }> {
    this.scriptBody ??= hostedFormScript().then((script) => ({ fileName: script.fileName, etag: script.etag, body: encode(script.body) }));
    return this.scriptBody;
  }
}
