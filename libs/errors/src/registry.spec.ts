import { defineErrorCodes, errorFactory, renderErrorReference } from './registry';

const codes = defineErrorCodes({
  widget_not_found: { type: 'not_found', description: 'No such widget.' },
  widget_busy: { type: 'conflict', description: 'The widget | is busy.' },
  too_many_widgets: { type: 'invalid_request', status: 429, description: 'Slow down.' },
});
const errors = errorFactory(codes);

describe('error registry', () => {
  it('takes the type and status of a code from the registry', () => {
    const error = errors.fail('too_many_widgets', 'Slow down.', { headers: { 'retry-after': '3' } });
    expect([error.type, error.code, error.status, error.headers]).toEqual(['invalid_request', 'too_many_widgets', 429, { 'retry-after': '3' }]);
    expect(errors.fail('widget_busy', 'Busy.').status).toBe(409);
  });

  it('names the field of an invalid request', () => {
    expect(errors.invalid('too_many_widgets', 'x', 'count').toBody()).toEqual({ type: 'invalid_request', code: 'too_many_widgets', message: 'x', details: { field: 'count' } });
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

  it('renders the reference sorted by code, escaping table pipes', () => {
    const page = renderErrorReference('Widget errors', 'Intro.', codes);
    const rows = page.split('\n').filter((line) => line.startsWith('| `'));
    expect(rows).toEqual([
      '| `too_many_widgets` | 429 | `invalid_request` | Slow down. |',
      '| `widget_busy` | 409 | `conflict` | The widget \\| is busy. |',
      '| `widget_not_found` | 404 | `not_found` | No such widget. |',
    ]);
  });
});
