import { DeliveryConnection } from '@email/data-access';
import { EmailErrors } from '@email/contracts';
import { escapeHtml } from '@shared/core';
import { DomainError, TooManyRequests } from '@shared/errors';
import { DeliveryFailureReason, DeliveryOutcome, OutgoingMessage } from '../providers/delivery-provider';

const details = (reason: DeliveryFailureReason) => ({ details: { reason: reason.code } });
const retryAfter = (seconds: number) => ({ headers: { 'retry-after': String(seconds) } });

/** A failed credentials check as the API answers it. */
export function verifyFailure(kind: 'transient' | 'permanent', reason: DeliveryFailureReason): DomainError {
  if (kind === 'transient') {
    return EmailErrors.fail('delivery_provider_unavailable', `The provider could not be reached: ${reason.message}`, { ...details(reason), ...retryAfter(30) });
  }
  return EmailErrors.fail('delivery_credentials_rejected', `The provider refused the saved credentials: ${reason.message}`, details(reason));
}

/** A test send that was not accepted, as the API answers it. */
export function sendFailure(outcome: Exclude<DeliveryOutcome, { kind: 'accepted' }>): DomainError {
  const { reason } = outcome;
  switch (outcome.kind) {
    case 'throttled':
      return TooManyRequests(Math.max(1, Math.ceil((outcome.retryAfterMs ?? 60_000) / 1000)));
    case 'transient':
      return EmailErrors.fail('delivery_provider_unavailable', `The provider could not take the email now: ${reason.message}`, {
        ...details(reason),
        ...retryAfter(30),
      });
    case 'unknown':
      return EmailErrors.fail('delivery_outcome_unknown', `The email may or may not have been sent: ${reason.message}`, details(reason));
    case 'permanent':
      return reason.code === 'authentication_failed'
        ? EmailErrors.fail('delivery_credentials_rejected', `The provider refused the saved credentials: ${reason.message}`, details(reason))
        : EmailErrors.fail('delivery_test_refused', `The provider refused the test email: ${reason.message}`, details(reason));
  }
}

/** The plain email a connection test sends: says what it is, from the connection's own sender. */
export function testMessage(connection: DeliveryConnection, to: string, id: string): OutgoingMessage {
  const domain = connection.from_email.slice(connection.from_email.lastIndexOf('@') + 1);
  const lines = [
    `This is a test email from the "${connection.name}" delivery connection (${connection.provider}).`,
    `It was sent from ${connection.from_name} <${connection.from_email}> to check that the connection can deliver email.`,
    'No action is needed.',
  ];
  return {
    messageId: `${id}@${domain}`,
    from: { address: connection.from_email, name: connection.from_name },
    to,
    subject: `Test email: ${connection.name}`,
    text: `${lines.join('\n\n')}\n`,
    html: `<!doctype html><html><body style="font-family:sans-serif;color:#1f2328">${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('')}</body></html>`,
    headers: { 'X-Postline-Test': 'connection' },
  };
}
