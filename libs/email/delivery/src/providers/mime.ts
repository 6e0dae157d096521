import MailComposer from 'nodemailer/lib/mail-composer';
import type { OutgoingMessage } from './delivery-provider';

/** The message as one MIME document (text + html alternative, our Message-ID and extra headers), for SMTP and raw-MIME APIs. */
export function composeMime(message: OutgoingMessage): Promise<Buffer> {
  const composer = new MailComposer({
    from: { address: message.from.address, name: message.from.name },
    to: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html,
    messageId: `<${message.messageId.replace(/^<|>$/g, '')}>`,
    headers: message.headers,
  });
  return composer.compile().build();
}
