import type { OutgoingMessage } from '../providers/delivery-provider';

/** A marketing message to reader@postline.test with both bodies and the RFC 8058 headers; override what a test needs. */
export const outgoingMessage = (overrides: Partial<OutgoingMessage> = {}): OutgoingMessage => ({
  messageId: 'msg_01@postline.test',
  from: { address: 'news@postline.test', name: 'Postline News' },
  to: 'reader@postline.test',
  subject: 'Hello there',
  html: '<p>Hello <strong>reader</strong></p>',
  text: 'Hello reader',
  headers: {
    'List-Unsubscribe': '<https://postline.test/u/abc123>',
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  },
  ...overrides,
});
