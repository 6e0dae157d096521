import { createHash } from 'node:crypto';
import { BASE_CSS } from './styles';

/** A static file of the hosted page, named by its content so it can be cached as immutable. */
export interface HostedAsset {
  body: string;
  /** A strong, quoted ETag. */
  etag: string;
  /** `form.<hash>.<extension>`. */
  fileName: string;
}

export function contentNamedAsset(body: string, extension: 'js' | 'css'): HostedAsset {
  const hash = createHash('sha256').update(body).digest('hex');
  return { body, etag: `"${hash.slice(0, 32)}"`, fileName: `form.${hash.slice(0, 8)}.${extension}` };
}

let stylesheet: HostedAsset | undefined;

/** The page's fixed stylesheet as a cacheable file (the theme stays inline in each page). */
export function hostedFormStylesheet(): HostedAsset {
  stylesheet ??= contentNamedAsset(BASE_CSS, 'css');
  return stylesheet;
}
