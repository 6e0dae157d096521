import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { gzipSync } from 'node:zlib';
import { PublishedForm } from '@forms/forms';
import {
  HOSTED_FORM_CSP,
  hostedFormCsp,
  hostedFormScript,
  hostedFormStylesheet,
  renderHostedForm,
  renderUnavailablePage,
  withPaymentOrigins,
} from '@forms/hosted-page';

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
const STRIPE_JS_ORIGIN = 'https://js.stripe.com';
const STRIPE_HOOKS_ORIGIN = 'https://hooks.stripe.com';

/** Where the page's self-hosted theme fonts are served (`PublicFormsController.font`). */
export const FONTS_URL = '/f/fonts';

const encode = (text: string): EncodedBody => {
  const plain = Buffer.from(text);
  return { plain, gzip: gzipSync(plain) };
};

/** Hosted form pages (and the closed and not-found pages), rendered and compressed once per published version and kept in memory. */
@Injectable()
export class HostedPages {
  private readonly pages = new Map<string, { body: EncodedBody; csp: string }>();
  private scriptBody?: Promise<{ fileName: string; etag: string; body: EncodedBody }>;
  private stylesheetBody?: { fileName: string; etag: string; body: EncodedBody };
  private notFound?: EncodedBody;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async render(form: PublishedForm | null): Promise<RenderedPage> {
    if (!form || !form.schema) {
      this.notFound ??= encode(renderUnavailablePage('This form does not exist or is not published yet.', undefined, FONTS_URL));
      return { status: 404, body: this.notFound, csp: HOSTED_FORM_CSP };
    }
    const key = `${form.publicId}:${form.version}:${form.status}`;
    let page = this.pages.get(key);
    if (!page) {
      page =
        form.status === 'closed'
          ? { body: encode(renderUnavailablePage(`${form.title} is closed and no longer accepts responses.`, undefined, FONTS_URL)), csp: HOSTED_FORM_CSP }
          : { body: await this.renderForm(form, form.schema), csp: this.csp(form.schema) };
      if (this.pages.size >= MAX_CACHED_PAGES) this.pages.delete(this.pages.keys().next().value as string);
      this.pages.set(key, page);
    }
    return { status: 200, ...page };
  }

  /** A form with a payment field may load its providers' checkout scripts, which talk to their APIs. */
  private csp(schema: NonNullable<PublishedForm['schema']>): string {
    const csp = hostedFormCsp(schema.theme);
    if (!schema.steps.some((step) => step.fields.some((field) => field.type === 'payment'))) return csp;
    const { razorpayCheckoutScriptUrl, razorpayApiBaseUrl, stripeJsUrl, stripeApiBaseUrl } = this.config.payments;
    const origins = [razorpayCheckoutScriptUrl, razorpayApiBaseUrl, stripeJsUrl, stripeApiBaseUrl].map((url) => new URL(url).origin);
    // Stripe.js frames 3D Secure challenges from hooks.stripe.com (Stripe's CSP guide).
    if (origins.includes(STRIPE_JS_ORIGIN)) origins.push(STRIPE_HOOKS_ORIGIN);
    return withPaymentOrigins(csp, origins);
  }

  /** What a person sees past the hosted-page limit: a page, not a JSON envelope. Rare, so rendered each time. */
  tooManyRequests(retryAfterSeconds: number): RenderedPage {
    const message = `Too many pages were opened from your network in the last minute. Please wait ${retryAfterSeconds} seconds, then reload this page.`;
    return { status: 429, body: encode(renderUnavailablePage(message, 'Please try again shortly', FONTS_URL)), csp: HOSTED_FORM_CSP };
  }

  private async renderForm(form: PublishedForm, schema: NonNullable<PublishedForm['schema']>): Promise<EncodedBody> {
    const script = await this.script();
    return encode(
      renderHostedForm({
        formId: form.formId,
        publicId: form.publicId,
        title: form.title,
        publishedVersion: form.version,
        schema,
        submitUrl: `/api/public/forms/${form.publicId}/submissions`,
        uploadUrl: `/api/public/forms/${form.publicId}/uploads`,
        scriptUrl: `/f/assets/${script.fileName}`,
        stylesheetUrl: `/f/assets/${this.stylesheet().fileName}`,
        fontsUrl: FONTS_URL,
      }),
    );
  }

  stylesheet(): { fileName: string; etag: string; body: EncodedBody } {
    if (!this.stylesheetBody) {
      const { fileName, etag, body } = hostedFormStylesheet();
      this.stylesheetBody = { fileName, etag, body: encode(body) };
    }
    return this.stylesheetBody;
  }

  script(): Promise<{ fileName: string; etag: string; body: EncodedBody }> {
    this.scriptBody ??= hostedFormScript().then((script) => ({ fileName: script.fileName, etag: script.etag, body: encode(script.body) }));
    return this.scriptBody;
  }
}
