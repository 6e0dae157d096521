import { isEmail } from 'class-validator';
import { EmailErrors } from '@email/contracts';
import { acceptedEmail } from './email-identity';
import { SUBSCRIBER_STATUSES, SubscriberStatusName } from './subscriber.dto';

/** The upsert body's bounds (its DTO states them for the API; bulk writers, the import, check them here). */
export const SUBSCRIBER_EMAIL_MAX = 254;
export const SUBSCRIBER_NAME_MAX = 255;

/**
 * A plain ASCII address: dot-separated runs of letters, digits and `_%+-` (at most 64 characters) before the @, then
 * hostname labels and a letter TLD, no punycode label. isEmail accepts every such address and IDNA changes nothing in
 * it but its case, so it skips both (they are most of an import's worker time); anything else takes the full checks.
 */
const PLAIN_EMAIL = /^(?=[^@]{1,64}@)[a-z0-9_%+-]+(?:\.[a-z0-9_%+-]+)*@(?!xn--)(?!.*\.xn--)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

export const isPlainEmail = (email: string): boolean => email.length <= SUBSCRIBER_EMAIL_MAX && PLAIN_EMAIL.test(email);

/** One email value as the upsert takes it: a valid address (the DTO's IsEmail) of at most 254 characters, in its stored form. */
export function subscriberEmail(input: string, field = 'email'): string {
  const email = input.trim();
  if (isPlainEmail(email)) return email.toLowerCase();
  if (email.length > SUBSCRIBER_EMAIL_MAX || !isEmail(email))
    throw EmailErrors.invalid('invalid_email', `"${email.slice(0, 60)}" is not an email address.`, field);
  return acceptedEmail(email, field);
}

export function subscriberName(input: string, field = 'name'): string {
  const name = input.trim();
  if (name.length > SUBSCRIBER_NAME_MAX) throw EmailErrors.invalid('validation_failed', `${field} must be at most ${SUBSCRIBER_NAME_MAX} characters.`, field);
  return name;
}

export function subscriberStatus(input: string, field = 'status'): SubscriberStatusName {
  const status = SUBSCRIBER_STATUSES.find((name) => name.toLowerCase() === input.trim().toLowerCase());
  if (!status) throw EmailErrors.invalid('validation_failed', `${field} must be one of ${SUBSCRIBER_STATUSES.join(', ')}.`, field);
  return status;
}

/** Our reading of the contract: re-activating a subscriber who is not Active needs consent evidence. */
export const activationNeedsConsent = (previous: SubscriberStatusName, next: SubscriberStatusName | undefined): boolean =>
  next === 'Active' && previous !== 'Active';
