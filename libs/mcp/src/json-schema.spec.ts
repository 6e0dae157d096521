import Ajv from 'ajv';
import { SchemaConverter } from './json-schema';

describe('SchemaConverter', () => {
  const converter = new SchemaConverter({
    Page: { type: 'object', properties: { next: { type: 'string', nullable: true }, item: { $ref: '#/components/schemas/Item' } }, required: ['next'] },
    Item: { type: 'object', additionalProperties: false, properties: { kind: { type: 'string', enum: ['a', 'b'], nullable: true, example: 'a' } } },
    Loop: { type: 'object', properties: { self: { $ref: '#/components/schemas/Loop' } } },
  });

  it('turns references into $defs carried by the schema, transitively', () => {
    const refs = new Set<string>();
    const schema = converter.standalone(converter.convert({ $ref: '#/components/schemas/Page' }, refs), refs);
    expect(schema).toEqual({
      $ref: '#/$defs/Page',
      $defs: {
        Item: { type: 'object', additionalProperties: false, properties: { kind: { type: ['string', 'null'], enum: ['a', 'b', null] } } },
        Page: { type: 'object', properties: { next: { type: ['string', 'null'] }, item: { $ref: '#/$defs/Item' } }, required: ['next'] },
      },
    });
  });

  it('handles recursive components and nullable references', () => {
    const refs = new Set<string>();
    const schema = converter.standalone(converter.convert({ $ref: '#/components/schemas/Loop', nullable: true }, refs), refs);
    expect(schema).toEqual({
      anyOf: [{ $ref: '#/$defs/Loop' }, { type: 'null' }],
      $defs: { Loop: { type: 'object', properties: { self: { $ref: '#/$defs/Loop' } } } },
    });
  });

  it('makes a typed schema with a combinator nullable by a null alternative, so null validates (the preflight sending_quota)', () => {
    const refs = new Set<string>();
    const source = { type: 'object', nullable: true, allOf: [{ $ref: '#/components/schemas/Item' }] };
    const schema = converter.standalone(converter.convert(source, refs), refs);
    expect(schema).toMatchObject({ anyOf: [{ type: 'object', allOf: [{ $ref: '#/$defs/Item' }] }, { type: 'null' }] });
    const validate = new Ajv({ strict: false }).compile(schema);
    expect([null, { kind: 'a' }, 'a', { kind: 'c' }].map((value) => validate(value))).toEqual([true, true, false, false]);
  });

  it('adds null to a nullable enum once', () => {
    expect(converter.convert({ type: 'string', enum: ['a', null], nullable: true }, new Set())).toEqual({ type: ['string', 'null'], enum: ['a', null] });
  });

  it('rewrites OpenAPI 3.0 boolean exclusive bounds as numbers', () => {
    expect(converter.convert({ type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 5, exclusiveMaximum: false }, new Set())).toEqual({
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 5,
    });
  });

  it('refuses a reference to a schema the document does not define', () => {
    const refs = new Set<string>();
    expect(() => converter.standalone(converter.convert({ $ref: '#/components/schemas/Nope' }, refs), refs)).toThrow(/Nope/);
  });
});
