import { DomainError } from '@shared/errors';
import { readExportSelection } from './export-selection';

function refusal(body: unknown): { code: string; field: unknown } {
  try {
    readExportSelection(body);
  } catch (error) {
    const domain = error as DomainError;
    return { code: domain.code, field: domain.details?.field };
  }
  throw new Error('accepted');
}

describe('readExportSelection', () => {
  it('selects everything when the body or its filters are absent', () => {
    const everything = { selectedSubmissionIds: null, filters: { search: null, status: null, from: null, to: null } };
    expect(readExportSelection(undefined)).toEqual(everything);
    expect(readExportSelection({})).toEqual(everything);
    expect(readExportSelection({ filters: {} })).toEqual(everything);
  });

  it('reads filters: a trimmed search, a known status, a date-only to covering its whole day, date-times with a zone', () => {
    expect(readExportSelection({ filters: { search: '  acme ', status: 'completed', from: '2026-11-01', to: '2026-11-02' } }).filters).toEqual({
      search: 'acme',
      status: 'completed',
      from: new Date('2026-11-01T00:00:00.000Z'),
      to: new Date('2026-11-02T23:59:59.999Z'),
    });
    expect(readExportSelection({ filters: { from: '2026-11-01T10:00:00+02:00' } }).filters.from).toEqual(new Date('2026-11-01T08:00:00Z'));
  });

  it('takes ids (deduplicated) over filters, as the spec says filters apply when ids are omitted', () => {
    expect(readExportSelection({ selectedSubmissionIds: ['sbm_1', 'sbm_2', 'sbm_1'], filters: { search: 'x' } })).toEqual({
      selectedSubmissionIds: ['sbm_1', 'sbm_2'],
      filters: { search: null, status: null, from: null, to: null },
    });
  });

  it.each([
    ['a body that is not an object', [], 'body'],
    ['an unknown property', { selection: [] }, 'selection'],
    ['an unknown filter', { filters: { q: 'x' } }, 'filters.q'],
    ['filters that are not an object', { filters: 'x' }, 'filters'],
    ['an unknown status', { filters: { status: 'partial' } }, 'filters.status'],
    ['a search that is not text', { filters: { search: 3 } }, 'filters.search'],
    ['a date that does not exist', { filters: { from: '2026-02-30' } }, 'filters.from'],
    ['a date-time without a zone', { filters: { to: '2026-02-01T10:00:00' } }, 'filters.to'],
    ['a date in another format', { filters: { from: '01/02/2026' } }, 'filters.from'],
    ['from after to', { filters: { from: '2026-03-02', to: '2026-03-01' } }, 'filters.to'],
    ['an empty id list', { selectedSubmissionIds: [] }, 'selectedSubmissionIds'],
    ['ids that are not a list', { selectedSubmissionIds: 'sbm_1' }, 'selectedSubmissionIds'],
    ['an id that is not a string', { selectedSubmissionIds: ['sbm_1', 7] }, 'selectedSubmissionIds[1]'],
  ])('refuses %s with a 400 naming the field', (_case, body, field) => {
    expect(refusal(body)).toEqual({ code: 'validation_failed', field });
  });
});
