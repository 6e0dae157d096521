export { renderHostedForm, renderUnavailablePage, type HostedFormView } from './page';
export { HOSTED_FORM_CSP } from './csp';
export { hostedFormScript, type HostedFormScript } from './script';
export { escapeHtml, safeUrl } from './escape';
