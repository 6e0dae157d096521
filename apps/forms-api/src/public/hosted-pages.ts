import { Injectable } from '@nestjs/common';
import { PublishedForm } from '@forms/forms';
import { HOSTED_FORM_CSP, hostedFormScript, renderHostedForm, renderUnavailablePage } from '@forms/hosted-page';

export interface RenderedPage {
  status: number;
  html: string;
  csp: string;
}

const MAX_CACHED_PAGES = 2_000;

/** Hosted form pages, rendered once per published version and kept in memory. */
@Injectable()
export class HostedPages {
  private readonly pages = new Map<string, string>();

  async render(form: PublishedForm | null): Promise<RenderedPage> {
    if (!form || !form.schema) return { status: 404, html: renderUnavailablePage('This form does not exist or is not published yet.'), csp: HOSTED_FORM_CSP };
    if (form.status === 'closed') return { status: 200, html: renderUnavailablePage(`${form.title} is closed and no longer accepts responses.`), csp: HOSTED_FORM_CSP };
    const key = `${form.publicId}:${form.version}`;
    let html = this.pages.get(key);
    if (!html) {
      const script = await this.script();
      html = renderHostedForm({
        formId: form.formId,
        publicId: form.publicId,
        title: form.title,
        publishedVersion: form.version,
        schema: form.schema,
        submitUrl: `/api/public/forms/${form.publicId}/submissions`,
        uploadUrl: `/api/public/forms/${form.publicId}/uploads`,
        scriptUrl: `/f/assets/${script.fileName}`,
      });
      if (this.pages.size >= MAX_CACHED_PAGES) this.pages.delete(this.pages.keys().next().value as string);
      this.pages.set(key, html);
    }
    return { status: 200, html, csp: HOSTED_FORM_CSP };
  }

  script() {
    return hostedFormScript();
  }
}
