export { renderHostedForm, renderUnavailablePage, type HostedFormView } from './page';
export { HOSTED_FORM_CSP, hostedFormCsp, withPaymentOrigins } from './csp';
export { hostedFontFile, type FontFile } from './fonts';
export { hostedFormScript, type HostedFormScript } from './script';
export { escapeHtml, safeUrl } from './escape';
export { hostedFormStylesheet, type HostedAsset } from './assets';
