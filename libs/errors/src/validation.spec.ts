import { ArgumentMetadata, ValidationError } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsInt, IsString, Max, ValidateNested } from 'class-validator';
import { DomainError } from './domain-error';
import { ClosedObject } from './object-schema';
import { createValidationPipe, firstFailure } from './validation';

const failure = (property: string, constraints?: Record<string, string>, children: ValidationError[] = []): ValidationError => ({
  property,
  constraints,
  children,
});

describe('firstFailure', () => {
  it('names the first failing property and its first constraint', () => {
    expect(firstFailure([failure('name', { isString: 'name must be a string', maxLength: 'too long' }), failure('other', { isInt: 'x' })])).toEqual({
      field: 'name',
      reason: 'isString: name must be a string',
    });
  });

  it('gives the type check as the reason when a value of the wrong type fails other rules too, containers first', () => {
    expect(firstFailure([failure('query', { maxLength: 'at most 200 characters', isString: 'query must be a string' })])).toEqual({
      field: 'query',
      reason: 'isString: query must be a string',
    });
    expect(
      firstFailure([failure('ids', { isString: 'each value in ids must be a string', arrayMaxSize: 'at most 100', isArray: 'ids must be an array' })]),
    ).toEqual({
      field: 'ids',
      reason: 'isArray: ids must be an array',
    });
    expect(firstFailure([failure('id', { notBlank: 'id must not be blank', maxLength: 'too long' })])).toEqual({
      field: 'id',
      reason: 'notBlank: id must not be blank',
    });
  });

  it('builds dotted paths for objects and brackets for array items, depth first', () => {
    const nested = failure('consent_evidence', undefined, [failure('source', undefined, [failure('collected_at', { isDate: 'bad date' })])]);
    expect(firstFailure([nested])).toEqual({ field: 'consent_evidence.source.collected_at', reason: 'isDate: bad date' });
    const inArray = failure('tags', undefined, [failure('2', { isString: 'each must be a string' })]);
    expect(firstFailure([inArray])).toEqual({ field: 'tags[2]', reason: 'isString: each must be a string' });
    const arrayOfObjects = failure('items', undefined, [failure('0', undefined, [failure('id', { isString: 's' })])]);
    expect(firstFailure([arrayOfObjects])).toEqual({ field: 'items[0].id', reason: 'isString: s' });
  });

  it('skips branches without a failure and errors with an empty constraint list', () => {
    const quiet = failure('a', {}, [failure('b', undefined, [])]);
    expect(firstFailure([quiet, failure('c', { min: 'too small' })])).toEqual({ field: 'c', reason: 'min: too small' });
    expect(firstFailure([quiet])).toBeUndefined();
    expect(firstFailure([])).toBeUndefined();
  });

  it('calls a property the DTO does not declare unknown_property, and keeps a bare reason without message', () => {
    expect(firstFailure([failure('admin', { whitelistValidation: 'property admin should not exist' })])).toEqual({
      field: 'admin',
      reason: 'unknown_property: property admin should not exist',
    });
    expect(firstFailure([failure('x', { custom: '' })])).toEqual({ field: 'x', reason: 'custom' });
  });
});

class Address {
  @IsString()
  city!: string;
}

class Body {
  @IsInt()
  @Max(10)
  count!: number;

  @ValidateNested()
  @Type(() => Address)
  address!: Address;
}

describe('createValidationPipe', () => {
  const pipe = createValidationPipe();
  const body: ArgumentMetadata = { type: 'body', metatype: Body };

  async function refusal(value: unknown, metadata: ArgumentMetadata = body): Promise<DomainError> {
    try {
      await pipe.transform(value, metadata);
    } catch (error) {
      return error as DomainError;
    }
    throw new Error('expected a refusal');
  }

  it('passes a valid body through, transformed into the DTO', async () => {
    const value = await pipe.transform({ count: 3, address: { city: 'Lyon' } }, body);
    expect(value).toBeInstanceOf(Body);
    expect(value).toEqual({ count: 3, address: { city: 'Lyon' } });
  });

  it('says a missing property is required, rather than quoting its first constraint', async () => {
    const error = await refusal({ address: { city: 'Lyon' } });
    expect(error.toBody()).toMatchObject({ details: { field: 'count', reason: 'required: count is required' } });
    const nested = await refusal({ count: 1, address: {} });
    expect(nested.toBody()).toMatchObject({ details: { field: 'address.city', reason: 'required: address.city is required' } });
  });

  it('answers 400 validation_failed naming the first failing field', async () => {
    const error = await refusal({ count: 11, address: { city: 'Lyon' } });
    expect(error).toBeInstanceOf(DomainError);
    expect([error.status, error.code, error.message]).toEqual([400, 'validation_failed', 'Invalid value for "count".']);
    expect(error.details).toEqual({ field: 'count', reason: 'max: count must not be greater than 10' });
    expect((await refusal({ count: 1, address: { city: 5 } })).details?.field).toBe('address.city');
  });

  it('refuses properties the DTO does not declare, without echoing values', async () => {
    const error = await refusal({ count: 1, address: { city: 'Lyon' }, role: 'admin' });
    expect(error.details).toEqual({ field: 'role', reason: 'unknown_property: property role should not exist' });
    expect(JSON.stringify(error.toBody())).not.toContain('admin');
  });

  it('refuses unstorable text before validating, in bodies and in path parameters', async () => {
    const inBody = await refusal({ count: 1, address: { city: 'Ly\u0000on' } });
    expect([inBody.code, inBody.details]).toEqual(['invalid_characters', { field: 'address.city' }]);
    const inParam = await refusal('sub_\u0000', { type: 'param', data: 'id', metatype: String });
    expect([inParam.code, inParam.details]).toEqual(['invalid_characters', { field: 'id' }]);
    const wholeQuery = await refusal({ q: '\ud800' }, { type: 'query', metatype: Object });
    expect(wholeQuery.details).toEqual({ field: 'q' });
  });
});

@ClosedObject()
class Evidence {
  @IsString()
  basis!: string;
}

/** Open: what it does not declare is dropped in per-schema mode. */
class Profile {
  @IsString()
  name!: string;

  @ValidateNested()
  @Type(() => Evidence)
  evidence!: Evidence;

  @ValidateNested()
  @Type(() => Address)
  address!: Address;
}

@ClosedObject()
class Settings {
  @IsString()
  label!: string;

  @ValidateNested()
  @Type(() => Address)
  address!: Address;
}

describe('createValidationPipe per-schema', () => {
  const pipe = createValidationPipe('per-schema');
  const strict = createValidationPipe();
  const metadata = (metatype: ArgumentMetadata['metatype']): ArgumentMetadata => ({ type: 'body', metatype });

  async function refusal(value: unknown, metatype: ArgumentMetadata['metatype']): Promise<DomainError> {
    try {
      await pipe.transform(value, metadata(metatype));
    } catch (error) {
      return error as DomainError;
    }
    throw new Error('expected a refusal');
  }

  it('drops unknown properties of open objects, at any depth, and keeps the declared ones', async () => {
    const value = await pipe.transform({ name: 'Ada', extra: 1, evidence: { basis: 'consent' }, address: { city: 'Lyon', zip: '69001' } }, metadata(Profile));
    expect(value).toBeInstanceOf(Profile);
    expect(value).toEqual({ name: 'Ada', evidence: { basis: 'consent' }, address: { city: 'Lyon' } });
  });

  it('refuses unknown properties of closed objects, also when an open object holds them, and inside them the open ones drop theirs', async () => {
    const nested = await refusal({ name: 'Ada', evidence: { basis: 'consent', ip: '10.0.0.1' }, address: { city: 'Lyon' } }, Profile);
    expect([nested.code, nested.details]).toEqual(['validation_failed', { field: 'evidence.ip', reason: 'unknown_property: property ip should not exist' }]);
    const top = await refusal({ label: 'x', address: { city: 'Lyon' }, role: 'admin' }, Settings);
    expect(top.details).toEqual({ field: 'role', reason: 'unknown_property: property role should not exist' });
    await expect(pipe.transform({ label: 'x', address: { city: 'Lyon', zip: '1' } }, metadata(Settings))).resolves.toEqual({
      label: 'x',
      address: { city: 'Lyon' },
    });
  });

  it('still refuses what the DTO does declare, after dropping the unknown', async () => {
    const error = await refusal({ name: 5, extra: 1, evidence: { basis: 'consent' }, address: { city: 'Lyon' } }, Profile);
    expect(error.details).toEqual({ field: 'name', reason: 'isString: name must be a string' });
  });

  it('leaves the refuse mode refusing unknown properties of open objects too', async () => {
    await expect(
      strict.transform({ name: 'Ada', extra: 1, evidence: { basis: 'consent' }, address: { city: 'Lyon' } }, metadata(Profile)),
    ).rejects.toMatchObject({
      details: { field: 'extra', reason: 'unknown_property: property extra should not exist' },
    });
  });
});
