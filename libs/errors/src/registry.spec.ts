import { defineErrorCodes, errorFactory, renderErrorReference } from './registry';

const codes = defineErrorCodes({
  widget_not_found: { type: 'not_found', description: 'No such widget.' },
  widget_busy: { type: 'conflict', description: 'The widget | is busy.' },
  too_many_widgets: { type: 'invalid_request', status: 429, description: 'Slow down.' },
  widget_broken: { type: 'invalid_request', description: 'Broken.', also: { type: 'conflict', when: 'another widget depends on it.' } },
});
const errors = errorFactory(codes);

describe('error registry', () => {
  it('takes the type and status of a code from the registry', () => {
    const error = errors.fail('too_many_widgets', 'Slow down.', { headers: { 'retry-after': '3' } });
    expect([error.type, error.code, error.status, error.headers]).toEqual(['invalid_request', 'too_many_widgets', 429, { 'retry-after': '3' }]);
    expect(errors.fail('widget_busy', 'Busy.').status).toBe(409);
  });

  it('names the field of an invalid request', () => {
    expect(errors.invalid('too_many_widgets', 'x', 'count').toBody()).toEqual({
      type: 'invalid_request',
      code: 'too_many_widgets',
      message: 'x',
      details: { field: 'count' },
    });
    expect(errors.invalid('too_many_widgets', 'x').toBody()).not.toHaveProperty('details');
  });

  it('builds not-found errors only for listed resource types', () => {
    expect(errors.notFound('widget', 'wdg_1').toBody()).toEqual({
      type: 'not_found',
      code: 'widget_not_found',
      message: 'No widget with id "wdg_1" was found.',
      details: { resource: { type: 'widget', id: 'wdg_1' } },
    });
    const unlisted = () => [
      // @ts-expect-error: no gadget_not_found code is listed
      errors.notFound('gadget', 'g_1'),
      // @ts-expect-error: an unlisted code does not compile
      errors.fail('widget_exploded', 'Boom.'),
    ];
    expect(unlisted).toThrow(/gadget_not_found is not in the error registry/);
  });

  it('answers a code as its listed second type only', () => {
    const error = errors.failAs('conflict', 'widget_broken', 'Breaks another widget.');
    expect([error.type, error.code, error.status]).toEqual(['conflict', 'widget_broken', 409]);
    expect(errors.fail('widget_broken', 'Broken.').status).toBe(400);
    // @ts-expect-error: widget_busy lists no second type
    expect(() => errors.failAs('conflict', 'widget_busy', 'x')).toThrow('widget_busy is not listed as answering conflict');
  });

  it('renders the reference sorted by code, escaping table pipes', () => {
    const page = renderErrorReference('Widget errors', 'Intro.', codes);
    const rows = page.split('\n').filter((line) => line.startsWith('| `'));
    expect(rows).toEqual([
      '| `too_many_widgets` | 429 | `invalid_request` | Slow down. |',
      '| `widget_broken` | 400, 409 | `invalid_request`, `conflict` | Broken. As `conflict` when another widget depends on it. |',
      '| `widget_busy` | 409 | `conflict` | The widget \\| is busy. |',
      '| `widget_not_found` | 404 | `not_found` | No such widget. |',
    ]);
  });
});
