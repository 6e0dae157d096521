/**
 * Structural comparison of our OpenAPI document with the contract's, operation by operation. Only what a client
 * generator or a strict client reads is compared: parameters, request bodies, response statuses and schemas (with
 * `$ref`s followed on both sides, so component names may differ). Prose (descriptions, examples, titles) is not.
 * Our document is OpenAPI 3.0 and the contract 3.1: both spellings of "may be null" and of exclusive bounds are read
 * alike.
 */

export type Schema = Record<string, unknown>;

export interface OpenApiDocument {
  paths: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, Schema> };
}

export interface Difference {
  operationId: string;
  /** Where, inside the operation, with `$ref`s followed: `$.requestBody.content["application/json"].schema.properties.name.maxLength`. */
  path: string;
  /** The contract's value; `undefined` when the contract has nothing there. */
  expected: unknown;
  /** Our value; `undefined` when we have nothing there. */
  actual: unknown;
  /** The innermost contract component the difference sits in, and the path inside it (what an allowance names). */
  component?: { schema: string; pointer: string };
  /** Set on a property we add: whether the contract's schema there refuses additional properties. */
  contractClosed?: boolean;
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** Keywords compared as values once the schema is normalized (see `view`). */
const KEYWORDS = [
  'format',
  'enum',
  'const',
  'default',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'readOnly',
  'writeOnly',
] as const;

/** Booleans whose `false` means the same as leaving them out. */
const FALSE_IS_ABSENT = new Set(['uniqueItems', 'readOnly', 'writeOnly']);

const PARAMETER_DEFAULTS: Record<string, { style: string; explode: boolean }> = {
  query: { style: 'form', explode: true },
  path: { style: 'simple', explode: false },
  header: { style: 'simple', explode: false },
  cookie: { style: 'form', explode: true },
};

/** A schema with its `$ref`s, `allOf`s and null spellings folded away. */
interface View {
  types: string[];
  nullable: boolean;
  keywords: Record<string, unknown>;
  required: string[];
  properties: Record<string, Schema>;
  /** `open` for absent, `true` or `{}`; `closed` for `false`; otherwise the schema of the extra values. */
  additional: 'open' | 'closed' | Schema;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  /** The component this schema is, when it was reached through a `$ref`. */
  component?: string;
}

const isObject = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);
const key = (name: string) => (/^[A-Za-z_][\w-]*$/.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`);
const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const isNullSchema = (s: unknown) => isObject(s) && s.type === 'null' && Object.keys(s).length === 1;

export class UnresolvedReference extends Error {}

/** Follows a local `$ref` chain; throws UnresolvedReference when one points nowhere. */
export function resolve(document: OpenApiDocument, schema: Schema): { schema: Schema; component?: string } {
  let current = schema;
  let component: string | undefined;
  for (let hops = 0; typeof current.$ref === 'string'; hops++) {
    const match = /^#\/components\/schemas\/(.+)$/.exec(current.$ref);
    const target = match ? document.components?.schemas?.[match[1]] : undefined;
    if (!target || hops > 20) throw new UnresolvedReference(`$ref ${current.$ref} does not resolve`);
    component = match![1];
    current = target;
  }
  return { schema: current, component };
}

function view(document: OpenApiDocument, input: Schema): View {
  const { schema, component } = resolve(document, input);
  const result: View = { types: [], nullable: false, keywords: {}, required: [], properties: {}, additional: 'open', component };
  const merge = (part: View) => {
    if (!result.types.length) result.types = part.types;
    result.nullable ||= part.nullable;
    Object.assign(result.keywords, part.keywords);
    result.required = [...new Set([...result.required, ...part.required])].sort();
    Object.assign(result.properties, part.properties);
    if (part.additional !== 'open') result.additional = part.additional;
    result.items ??= part.items;
    result.anyOf ??= part.anyOf;
    result.oneOf ??= part.oneOf;
  };
  for (const member of (schema.allOf as Schema[] | undefined) ?? []) merge(view(document, member));

  const types = [schema.type].flat().filter((t): t is string => typeof t === 'string');
  if (types.length) result.types = types.filter((t) => t !== 'null').sort();
  if (schema.nullable === true || types.includes('null')) result.nullable = true;
  for (const word of KEYWORDS) {
    const value = schema[word];
    if (value === undefined || (value === false && FALSE_IS_ABSENT.has(word))) continue;
    result.keywords[word] = value;
  }
  if (Array.isArray(schema.enum)) {
    if (schema.enum.includes(null)) result.nullable = true;
    result.keywords.enum = schema.enum.filter((v) => v !== null).sort();
  }
  // 3.0 writes `exclusiveMinimum: true` beside `minimum`; 3.1 writes the bound itself.
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (schema[flag] === true) {
      result.keywords[flag] = schema[bound];
      delete result.keywords[bound];
    } else if (schema[flag] === false) delete result.keywords[flag];
  }
  if (Array.isArray(schema.required)) result.required = [...new Set([...result.required, ...(schema.required as string[])])].sort();
  if (isObject(schema.properties)) Object.assign(result.properties, schema.properties);
  if (schema.additionalProperties === false) result.additional = 'closed';
  else if (isObject(schema.additionalProperties) && Object.keys(schema.additionalProperties).length) result.additional = schema.additionalProperties;
  if (isObject(schema.items)) result.items = schema.items;

  for (const word of ['anyOf', 'oneOf'] as const) {
    const members = schema[word] as Schema[] | undefined;
    if (!members) continue;
    const kept = members.filter((m) => !isNullSchema(m));
    if (kept.length < members.length) result.nullable = true;
    if (kept.length === 1) merge(view(document, kept[0]));
    else result[word] = kept;
  }
  return result;
}

interface Context {
  operationId: string;
  ours: OpenApiDocument;
  contract: OpenApiDocument;
  differences: Difference[];
  /** Pairs of components already compared for this operation (schemas may be recursive). */
  seen: Set<string>;
}

interface Where {
  path: string;
  /** The innermost contract component and the path inside it. */
  component?: { schema: string; pointer: string };
}

function at(where: Where, segment: string): Where {
  return {
    path: where.path + segment,
    component: where.component && { schema: where.component.schema, pointer: where.component.pointer + segment },
  };
}

function report(ctx: Context, where: Where, expected: unknown, actual: unknown, extra: Partial<Difference> = {}): void {
  ctx.differences.push({
    operationId: ctx.operationId,
    path: where.path,
    expected,
    actual,
    ...(where.component ? { component: where.component } : {}),
    ...extra,
  });
}

/** Compares two schemas; `ours` or `contract` may be undefined (then the whole schema is the difference). */
export function compareSchema(ctx: Context, where: Where, ours: Schema | undefined, contract: Schema | undefined): void {
  if (!ours || !contract) {
    if (ours || contract) report(ctx, where, contract ? 'a schema' : undefined, ours ? 'a schema' : undefined);
    return;
  }
  let mine: View;
  try {
    mine = view(ctx.ours, ours);
  } catch (error) {
    if (!(error instanceof UnresolvedReference)) throw error;
    report(ctx, where, 'a resolvable $ref', error.message);
    return;
  }
  const theirs = view(ctx.contract, contract);
  if (mine.component && theirs.component) {
    const pair = `${mine.component}|${theirs.component}`;
    if (ctx.seen.has(pair)) return;
    ctx.seen.add(pair);
  }
  const here: Where = theirs.component ? { path: where.path, component: { schema: theirs.component, pointer: '$' } } : where;

  const compareValue = (segment: string, expected: unknown, actual: unknown) => {
    if (!sameValue(expected, actual)) report(ctx, at(here, segment), expected, actual);
  };
  compareValue('.type', theirs.types.join('|') || undefined, mine.types.join('|') || undefined);
  compareValue('.nullable', theirs.nullable, mine.nullable);
  for (const word of new Set([...Object.keys(theirs.keywords), ...Object.keys(mine.keywords)])) {
    compareValue(`.${word}`, theirs.keywords[word], mine.keywords[word]);
  }
  compareValue('.required', theirs.required.length ? theirs.required : undefined, mine.required.length ? mine.required : undefined);

  const theirAdditional = theirs.additional;
  const myAdditional = mine.additional;
  if (typeof theirAdditional === 'string' || typeof myAdditional === 'string') {
    compareValue(
      '.additionalProperties',
      typeof theirAdditional === 'string' ? theirAdditional : 'a schema',
      typeof myAdditional === 'string' ? myAdditional : 'a schema',
    );
  } else {
    compareSchema(ctx, at(here, '.additionalProperties'), myAdditional, theirAdditional);
  }

  for (const name of new Set([...Object.keys(theirs.properties), ...Object.keys(mine.properties)])) {
    const segment = `.properties${key(name)}`;
    const expected = theirs.properties[name];
    const actual = mine.properties[name];
    if (!actual) report(ctx, at(here, segment), 'the property', undefined);
    else if (!expected) report(ctx, at(here, segment), undefined, 'the property', { contractClosed: theirAdditional === 'closed' });
    else compareSchema(ctx, at(here, segment), actual, expected);
  }
  if (theirs.items || mine.items) compareSchema(ctx, at(here, '.items'), mine.items, theirs.items);
  for (const word of ['anyOf', 'oneOf'] as const) {
    const expected = theirs[word] ?? [];
    const actual = mine[word] ?? [];
    if (expected.length !== actual.length) compareValue(`.${word}.length`, expected.length, actual.length);
    else expected.forEach((member, i) => compareSchema(ctx, at(here, `.${word}[${i}]`), actual[i], member));
  }
}

type Parameter = { name: string; in: string; required?: boolean; schema?: Schema; style?: string; explode?: boolean };
type Content = Record<string, { schema?: Schema }>;
type Operation = {
  operationId?: string;
  security?: Array<Record<string, unknown>>;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Content };
  responses?: Record<string, { content?: Content }>;
};

const parameterKey = (p: Parameter) => `${p.in} ${p.in === 'header' ? p.name.toLowerCase() : p.name}`;

function compareParameters(ctx: Context, ours: Parameter[] = [], contract: Parameter[] = []): void {
  const mine = new Map(ours.map((p) => [parameterKey(p), p]));
  const theirs = new Map(contract.map((p) => [parameterKey(p), p]));
  for (const name of new Set([...theirs.keys(), ...mine.keys()])) {
    const where: Where = { path: `$.parameters[${name}]` };
    const expected = theirs.get(name);
    const actual = mine.get(name);
    if (!expected || !actual) {
      report(ctx, where, expected && 'the parameter', actual && 'the parameter');
      continue;
    }
    const defaults = PARAMETER_DEFAULTS[expected.in] ?? PARAMETER_DEFAULTS.query;
    const settings = (p: Parameter) => ({
      required: p.in === 'path' || p.required === true,
      style: p.style ?? defaults.style,
      explode: p.explode ?? defaults.explode,
    });
    const [e, a] = [settings(expected), settings(actual)];
    for (const field of ['required', 'style', 'explode'] as const) {
      if (e[field] !== a[field]) report(ctx, at(where, `.${field}`), e[field], a[field]);
    }
    compareSchema(ctx, at(where, '.schema'), actual.schema, expected.schema);
  }
}

function compareContent(ctx: Context, where: Where, ours: Content | undefined, contract: Content | undefined): void {
  const theirs = Object.keys(contract ?? {}).sort();
  const mine = Object.keys(ours ?? {}).sort();
  if (!sameValue(theirs, mine)) {
    report(ctx, at(where, '.content'), theirs, mine);
    return;
  }
  for (const type of theirs) compareSchema(ctx, at(where, `.content${key(type)}.schema`), ours![type].schema, contract![type].schema);
}

/**
 * Every difference between one of our operations and the contract's operation at the same path and method. Error
 * statuses we document beyond the contract's list (401/403 on every protected operation, for example) are fine as
 * long as their body is the contract's `Error`; any other status, parameter, property or keyword is a difference.
 */
export function compareOperation(ours: OpenApiDocument, contract: OpenApiDocument, path: string, method: string): Difference[] {
  const mine = ours.paths[path]?.[method] as Operation;
  const theirs = contract.paths[path]?.[method] as Operation | undefined;
  const ctx: Context = { operationId: mine.operationId ?? `${method.toUpperCase()} ${path}`, ours, contract, differences: [], seen: new Set() };
  if (!theirs) {
    report(ctx, { path: '$' }, undefined, `${method.toUpperCase()} ${path}`);
    return ctx.differences;
  }
  if (mine.operationId !== theirs.operationId) report(ctx, { path: '$.operationId' }, theirs.operationId, mine.operationId);
  const schemes = (op: Operation) => [...new Set((op.security ?? []).flatMap((requirement) => Object.keys(requirement)))].sort();
  if (!sameValue(schemes(theirs), schemes(mine))) report(ctx, { path: '$.security' }, schemes(theirs), schemes(mine));

  compareParameters(ctx, mine.parameters, theirs.parameters);

  const body: Where = { path: '$.requestBody' };
  if (!theirs.requestBody || !mine.requestBody) {
    if (theirs.requestBody || mine.requestBody) report(ctx, body, theirs.requestBody && 'a request body', mine.requestBody && 'a request body');
  } else {
    const [e, a] = [theirs.requestBody.required === true, mine.requestBody.required === true];
    if (e !== a) report(ctx, at(body, '.required'), e, a);
    compareContent(ctx, body, mine.requestBody.content, theirs.requestBody.content);
  }

  const errorSchema = { $ref: '#/components/schemas/Error' };
  for (const status of new Set([...Object.keys(theirs.responses ?? {}), ...Object.keys(mine.responses ?? {})])) {
    const where: Where = { path: `$.responses[${status}]` };
    const expected = theirs.responses?.[status];
    const actual = mine.responses?.[status];
    if (!actual) report(ctx, where, 'the response', undefined);
    else if (expected) compareContent(ctx, where, actual.content, expected.content);
    else if (Number(status) >= 400) compareContent(ctx, where, actual.content, { 'application/json': { schema: errorSchema } });
    else report(ctx, where, undefined, 'the response');
  }
  return ctx.differences;
}

/** Our operations (path and lower-case method), in document order: "implemented" is whatever our document lists. */
export function operationsOf(document: OpenApiDocument): Array<{ path: string; method: string }> {
  return Object.entries(document.paths).flatMap(([path, item]) => HTTP_METHODS.filter((method) => item[method]).map((method) => ({ path, method })));
}

/** Every `$ref` in the document that points nowhere (with where it sits). */
export function unresolvedReferences(document: OpenApiDocument): string[] {
  const broken: string[] = [];
  const walk = (value: unknown, where: string) => {
    if (Array.isArray(value)) value.forEach((item, i) => walk(item, `${where}[${i}]`));
    else if (isObject(value)) {
      if (typeof value.$ref === 'string') {
        try {
          resolve(document, value);
        } catch {
          broken.push(`${where}: ${value.$ref}`);
        }
      }
      for (const [name, child] of Object.entries(value)) walk(child, where + key(name));
    }
  };
  walk(document, '$');
  return broken;
}

export function formatDifference(d: Difference): string {
  const show = (value: unknown) => (value === undefined ? '(nothing)' : JSON.stringify(value));
  const inside = d.component ? ` [${d.component.schema} ${d.component.pointer}]` : '';
  return `${d.operationId} ${d.path}${inside}: contract ${show(d.expected)}, ours ${show(d.actual)}`;
}
