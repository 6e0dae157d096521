import type { EmailMark, EmailNode } from '../document';

const text = (value: string, ...marks: EmailMark[]): EmailNode => ({ type: 'text', text: value, ...(marks.length ? { marks } : {}) });
const paragraph = (...content: EmailNode[]): EmailNode => ({ type: 'paragraph', content });

/** A document using every node type and mark of the contract, and most attributes. */
export const EVERY_NODE: EmailNode = {
  type: 'doc',
  attrs: { linkColor: '#0a7cff' },
  content: [
    { type: 'heading', attrs: { level: 1, textAlign: 'center' }, content: [text('Hello [Subscriber_Name, fallback="friend"]')] },
    { type: 'heading', attrs: { level: 2 }, content: [text('News for {{ subscriber.name }}')] },
    { type: 'heading', attrs: { level: 3 }, content: [text('Small print')] },
    paragraph(
      text('Bold', { type: 'bold' }),
      text(', '),
      text('italic', { type: 'italic' }),
      text(', '),
      text('struck', { type: 'strike' }),
      text(', '),
      text('underlined', { type: 'underline' }),
      text(', '),
      text('red and big', { type: 'textStyle', attrs: { color: '#cc0000', fontSize: '20px' } }),
      text(', '),
      text('highlighted', { type: 'highlight', attrs: { color: '#ffee00' } }),
      { type: 'hardBreak' },
      text('a link', { type: 'link', attrs: { href: 'https://example.com/read?a=1&b=2' } }, { type: 'bold' }),
      text(' and your email: [Subscriber_Email, fallback="(none)"], colour [Subscriber_Favorite_Color, fallback="blue"].'),
    ),
    {
      type: 'bulletList',
      content: [
        { type: 'listItem', content: [paragraph(text('First'))] },
        {
          type: 'listItem',
          content: [paragraph(text('Second')), { type: 'orderedList', content: [{ type: 'listItem', content: [paragraph(text('Nested one'))] }] }],
        },
      ],
    },
    {
      type: 'orderedList',
      content: [
        { type: 'listItem', content: [paragraph(text('Step one'))] },
        { type: 'listItem', content: [paragraph(text('Step two'))] },
      ],
    },
    { type: 'blockquote', attrs: { blockquoteBorderColor: '#999999' }, content: [paragraph(text('A quote')), paragraph(text('on two paragraphs'))] },
    { type: 'horizontalRule' },
    {
      type: 'emailSection',
      attrs: {
        columns: 2,
        backgroundColor: '#f6f8fa',
        padding: 'normal',
        margin: 'normal',
        borderColor: '#d0d7de',
        borderWidth: 'normal',
        borderRadius: 'normal',
        width: 'default',
      },
      content: [
        {
          type: 'emailSectionColumn',
          attrs: { verticalAlign: 'middle', padding: 'normal' },
          content: [
            {
              type: 'image',
              attrs: {
                src: 'https://images.example.com/cat.jpg',
                alt: 'A cat',
                title: 'Cat',
                widthPercent: 50,
                align: 'left',
                href: 'https://example.com/cat',
                caption: 'Our cat',
                source: 'unsplash',
                unsplash: { photographerName: 'Ann Lee', photoId: 'abc' },
                crop: 'circle',
              },
            },
          ],
        },
        {
          type: 'emailSectionColumn',
          attrs: { verticalAlign: 'top' },
          content: [
            paragraph(text('Beside the cat')),
            {
              type: 'emailButton',
              attrs: {
                label: 'Shop now',
                href: 'https://example.com/shop',
                backgroundColor: '#116611',
                textColor: '#ffffff',
                size: 'large',
                borderRadius: 'full',
                align: 'left',
              },
            },
          ],
        },
      ],
    },
    paragraph(text('Bye.')),
  ],
};
