import { domainToASCII } from 'node:url';
import { EmailErrors } from '@email/contracts';

/**
 * The form an email address is stored, compared and looked up in: trimmed, the local part lower-cased in
 * Unicode NFC (so a precomposed and a decomposed "é" are one address), the domain in its ASCII (IDNA) form
 * (so "müller.de" and "xn--mller-kva.de" are one domain). A domain IDNA rejects is a 400 naming `field`.
 */
export function emailIdentity(input: string, field = 'email'): string {
  const email = input.trim();
  const at = email.lastIndexOf('@');
  const domain = at < 0 ? '' : domainToASCII(email.slice(at + 1).normalize('NFC'));
  if (!domain) throw EmailErrors.invalid('invalid_email', `"${field}" does not have a valid domain.`, field);
  return `${email.slice(0, at).toLowerCase().normalize('NFC')}@${domain}`;
}
