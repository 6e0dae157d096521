import type { OpenAPIObject } from '@nestjs/swagger';
import { toOpenApi31 } from './openapi-document';

const withSchemas = (schemas: Record<string, unknown>) =>
  ({ openapi: '3.0.0', info: { title: 't', version: 'v1' }, paths: {}, components: { schemas } }) as unknown as OpenAPIObject;

describe('toOpenApi31', () => {
  const converted = (schema: unknown) => toOpenApi31(withSchemas({ S: schema })).components!.schemas!.S;

  it('stamps 3.1.0 and leaves schemas without nullable as they are', () => {
    expect(toOpenApi31(withSchemas({})).openapi).toBe('3.1.0');
    expect(converted({ type: 'string', format: 'date-time' })).toEqual({ type: 'string', format: 'date-time' });
  });

  it('adds null to the type (and to the enum) of a nullable value', () => {
    expect(converted({ type: 'string', nullable: true, format: 'date-time' })).toEqual({ type: ['string', 'null'], format: 'date-time' });
    expect(converted({ type: 'string', nullable: true, enum: ['a'] })).toEqual({ type: ['string', 'null'], enum: ['a', null] });
  });

  it('turns a nullable reference into anyOf with null, keeping its description', () => {
    expect(converted({ type: 'object', nullable: true, description: 'd', allOf: [{ $ref: '#/components/schemas/X' }] })).toEqual({
      description: 'd',
      anyOf: [{ $ref: '#/components/schemas/X' }, { type: 'null' }],
    });
  });

  it('converts nested schemas too', () => {
    expect(converted({ type: 'object', properties: { at: { type: 'string', nullable: true } } })).toEqual({
      type: 'object',
      properties: { at: { type: ['string', 'null'] } },
    });
  });
});
