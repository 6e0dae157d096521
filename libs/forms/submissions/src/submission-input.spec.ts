import { DomainError } from '@shared/errors';
import { readSubmissionInput } from './submission-input';

const refusal = (body: unknown) => {
  try {
    readSubmissionInput(body);
  } catch (error) {
    if (error instanceof DomainError) return { code: error.code, details: error.details };
    throw error;
  }
  throw new Error('expected a refusal');
};

it('reads a body with values as the wrapper, naming an unknown wrapper key rather than reading the body as answers', () => {
  expect(refusal({ values: { q: 'a' }, refillToken: 'abc' })).toEqual({
    code: 'validation_failed',
    details: { field: 'refillToken', reason: 'unknown_property' },
  });
  expect(refusal({ values: { q: 'a' }, extra: 1 })).toMatchObject({ code: 'validation_failed', details: { field: 'extra' } });
  expect(refusal({ values: 'x' })).toMatchObject({ code: 'validation_failed', details: { field: 'values' } });
  expect(refusal({ values: null })).toMatchObject({ code: 'validation_failed', details: { field: 'values' } });
  expect(readSubmissionInput({ values: { q: 'a' }, analyticsSessionId: 's1' })).toMatchObject({
    values: { q: 'a' },
    valuesPath: 'values.',
    analyticsSessionId: 's1',
  });
});

it('reads a body without values as the field-value map', () => {
  expect(readSubmissionInput({ q: 'a', extra: 1 })).toMatchObject({ values: { q: 'a', extra: 1 }, valuesPath: '' });
});
