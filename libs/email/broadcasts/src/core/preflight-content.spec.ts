import { isWellFormedLink, malformedUrls, missingUnsubscribeParts } from './preflight-content';

describe('preflight content checks', () => {
  it('tells well-formed links from ones a mail client could not follow', () => {
    for (const good of [
      'https://shop.example.com/a?b=1#c',
      'http://example.co.uk',
      'mailto:hello@example.com',
      'mailto:a@b.example?subject=Hi',
      'tel:+1 (555) 010-0000',
    ]) {
      expect([good, isWellFormedLink(good)]).toEqual([good, true]);
    }
    for (const bad of [
      'javascript:alert(1)',
      'https://exa mple.com',
      'https://localhost/x',
      'https://',
      'http://.example.com',
      'example.com',
      'mailto:nobody',
      'tel:abc',
      'ftp://example.com',
      '',
    ]) {
      expect([bad, isWellFormedLink(bad)]).toEqual([bad, false]);
    }
  });

  it('names the path of every malformed link and image URL of the document', () => {
    const document = {
      type: 'doc',
      content: [
        { type: 'paragraph', content: [{ type: 'text', text: 'x', marks: [{ type: 'bold' }, { type: 'link', attrs: { href: 'https://ok.example.com' } }] }] },
        { type: 'paragraph', content: [{ type: 'text', text: 'y', marks: [{ type: 'link', attrs: { href: 'javascript:void(0)' } }] }] },
        { type: 'emailButton', attrs: { label: 'Go', href: 'www.example.com' } },
        { type: 'image', attrs: { src: 'data:image/png;base64,AAAA', href: 'https://ok.example.com' } },
        { type: 'emailSection', attrs: { backgroundImageUrl: 'https://img.example.com/bg.png' }, content: [] },
      ],
    };
    expect(malformedUrls(document)).toEqual([
      { path: 'body_document.content[1].content[0].marks[0].attrs.href', url: 'javascript:void(0)' },
      { path: 'body_document.content[2].attrs.href', url: 'www.example.com' },
      { path: 'body_document.content[3].attrs.src', url: 'data:image/png;base64,AAAA' },
    ]);
  });

  it('lists what a message lacks of its unsubscribe link and headers', () => {
    const url = 'https://mail.example.com/u/u1.abc.def';
    const complete = {
      messageId: 'm@x',
      from: { address: 'a@x.example', name: '' },
      to: 'b@x.example',
      subject: 's',
      html: `<a href="${url}">Unsubscribe</a>`,
      text: `Unsubscribe: ${url}`,
      headers: { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    };
    expect(missingUnsubscribeParts(complete, url)).toEqual([]);
    expect(missingUnsubscribeParts({ ...complete, html: '<p>no link</p>', headers: {} }, url)).toEqual([
      'the unsubscribe link in the HTML part',
      'the List-Unsubscribe header',
      'the List-Unsubscribe-Post header',
    ]);
  });
});
