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

/**
 * An address as the service takes one in (upsert, PATCH, import), in its stored form: its local part must be ASCII.
 * The contract types emails as `format: email`, which is ASCII and which strict clients check in every response, and
 * a UTF-8 local part needs SMTPUTF8 from every hop (SES, for one, refuses it). A Unicode domain is fine: it is stored
 * in its ASCII form.
 */
export function acceptedEmail(input: string, field = 'email'): string {
  const email = input.trim();
  // eslint-disable-next-line no-control-regex -- the ASCII range is the point
  if (/[^\x00-\x7f]/.test(email.slice(0, email.lastIndexOf('@'))))
    throw EmailErrors.invalid('invalid_email', `The part of ${field} before the @ must be ASCII: most providers cannot deliver to other letters there.`, field);
  return emailIdentity(email, field);
}
