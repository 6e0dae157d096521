import { parseEmailDocument } from './document';
import { TemplateCache } from './compile';
import { EVERY_NODE } from './__fixtures__/every-node';

function refusal(value: unknown): { status: number; body: unknown } {
  try {
    parseEmailDocument(value);
  } catch (error) {
    const e = error as { status: number; toBody: () => unknown };
    return { status: e.status, body: e.toBody() };
  }
  throw new Error('accepted');
}

describe('parseEmailDocument', () => {
  it('accepts the spec example and a document using every node type and mark', () => {
    const example = { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Hello [Subscriber_Name, fallback="friend"].' }] }] };
    expect(parseEmailDocument(example)).toBe(example);
    expect(parseEmailDocument(EVERY_NODE)).toBe(EVERY_NODE);
  });

  it.each([
    ['a root that is not doc', { type: 'paragraph' }, 'body_document.type'],
    ['an unknown node type', { type: 'doc', content: [{ type: 'video' }] }, 'body_document.content[0].type'],
    ['an unknown node property', { type: 'doc', style: 'x' }, 'body_document.style'],
    ['an unknown attribute', { type: 'doc', content: [{ type: 'heading', attrs: { level: 1, font: 'x' } }] }, 'body_document.content[0].attrs.font'],
    ['a heading level outside 1–3', { type: 'doc', content: [{ type: 'heading', attrs: { level: 4 } }] }, 'body_document.content[0].attrs.level'],
    ['a widthPercent above 100', { type: 'doc', content: [{ type: 'image', attrs: { widthPercent: 101 } }] }, 'body_document.content[0].attrs.widthPercent'],
    ['a non-boolean fillColumn', { type: 'doc', content: [{ type: 'image', attrs: { fillColumn: 'yes' } }] }, 'body_document.content[0].attrs.fillColumn'],
    [
      'unsplash without photographerName',
      { type: 'doc', content: [{ type: 'image', attrs: { unsplash: { photoId: 'a' } } }] },
      'body_document.content[0].attrs.unsplash.photographerName',
    ],
    ['an unknown mark', { type: 'doc', content: [{ type: 'text', text: 'a', marks: [{ type: 'code' }] }] }, 'body_document.content[0].marks[0].type'],
    [
      'an unknown mark attribute',
      { type: 'doc', content: [{ type: 'text', text: 'a', marks: [{ type: 'link', attrs: { target: '_top' } }] }] },
      'body_document.content[0].marks[0].attrs.target',
    ],
    ['a non-string text', { type: 'doc', content: [{ type: 'text', text: 5 }] }, 'body_document.content[0].text'],
    ['content that is not an array', { type: 'doc', content: {} }, 'body_document.content'],
    ['a node that is not an object', { type: 'doc', content: ['x'] }, 'body_document.content[0]'],
  ])('refuses %s with a 400 naming the path', (_, value, field) => {
    const { status, body } = refusal(value);
    expect(status).toBe(400);
    expect(body).toMatchObject({ type: 'invalid_request', code: 'validation_failed', details: { field } });
  });

  it('refuses a document nested too deeply to render', () => {
    let node: Record<string, unknown> = { type: 'text', text: 'deep' };
    for (let i = 0; i < 100; i++) node = { type: 'blockquote', content: [node] };
    expect(refusal({ type: 'doc', content: [node] }).status).toBe(400);
  });
});

describe('TemplateCache', () => {
  it('compiles equal content once (whatever its key order) and evicts the least recently used', async () => {
    const cache = new TemplateCache(2);
    const a = { document: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'a' }] }] }, subject: 'A' };
    const reordered = { subject: 'A', document: { content: a.document.content, type: 'doc' } };
    const first = await cache.compile(a);
    expect(await cache.compile(reordered)).toBe(first);
    await cache.compile({ ...a, subject: 'B' });
    await cache.compile(a); // a is now the most recent
    await cache.compile({ ...a, subject: 'C' }); // evicts B
    expect(cache.size).toBe(2);
    expect(await cache.compile(a)).toBe(first);
  });

  it('does not keep a failed compile', async () => {
    const cache = new TemplateCache();
    await expect(cache.compile({ document: { type: 'nope' } })).rejects.toMatchObject({ status: 400 });
    expect(cache.size).toBe(0);
  });
});
