/** A JSON Schema object (draft-07 with `$defs`, what MCP clients validate tool inputs and outputs with). */
export type JsonSchema = { [key: string]: unknown };
/** A schema of an OpenAPI document's components (3.0 or 3.1). */
export type SchemaObject = JsonSchema;

const COMPONENT_REF = '#/components/schemas/';
/** OpenAPI-only keywords with no JSON Schema meaning, dropped. */
const DROPPED = new Set(['example', 'examples', 'nullable', 'xml', 'discriminator', 'externalDocs', 'deprecated']);
/** Keywords whose subschemas a value must also match. */
const COMBINED = ['$ref', 'allOf', 'anyOf', 'oneOf'];

/**
 * Turns the schemas of a generated OpenAPI document (3.0, or 3.1 where there is less to do) into standalone JSON
 * Schemas: component references become `$defs` entries carried by each schema that needs them, `nullable` becomes a
 * null alternative, and boolean `exclusiveMinimum`/`exclusiveMaximum` become numbers. The result describes exactly what
 * the REST API accepts and answers.
 */
export class SchemaConverter {
  private readonly converted = new Map<string, { schema: JsonSchema; refs: Set<string> }>();

  constructor(private readonly components: Record<string, SchemaObject>) {}

  /** Converts `schema`, recording the component names it refers to directly in `refs`. */
  convert(schema: unknown, refs: Set<string>): JsonSchema {
    if (!schema || typeof schema !== 'object') return {};
    const source = schema as Record<string, unknown>;
    if (typeof source.$ref === 'string') {
      const name = componentName(source.$ref);
      refs.add(name);
      return this.nullable({ $ref: `#/$defs/${name}` }, source.nullable === true);
    }
    const out: JsonSchema = {};
    for (const [key, value] of Object.entries(source)) {
      if (DROPPED.has(key)) continue;
      if (key === 'properties' && value && typeof value === 'object') {
        out.properties = Object.fromEntries(Object.entries(value).map(([name, property]) => [name, this.convert(property, refs)]));
      } else if ((key === 'items' || key === 'not') && value && typeof value === 'object') {
        out[key] = this.convert(value, refs);
      } else if (key === 'additionalProperties' && value && typeof value === 'object') {
        out[key] = this.convert(value, refs);
      } else if ((key === 'allOf' || key === 'oneOf' || key === 'anyOf') && Array.isArray(value)) {
        out[key] = value.map((item) => this.convert(item, refs));
      } else if (key === 'exclusiveMinimum' || key === 'exclusiveMaximum') {
        const bound = key === 'exclusiveMinimum' ? 'minimum' : 'maximum';
        if (value === true && typeof source[bound] === 'number') out[key] = source[bound];
        else if (typeof value === 'number') out[key] = value;
      } else {
        out[key] = value;
      }
    }
    if (out.exclusiveMinimum !== undefined) delete out.minimum;
    if (out.exclusiveMaximum !== undefined) delete out.maximum;
    return this.nullable(out, source.nullable === true);
  }

  /** `schema` with a `$defs` holding every component it reaches (none: no `$defs`). */
  standalone(schema: JsonSchema, refs: Set<string>): JsonSchema {
    const defs: Record<string, JsonSchema> = {};
    const pending = [...refs];
    while (pending.length) {
      const name = pending.pop()!;
      if (defs[name]) continue;
      const component = this.component(name);
      defs[name] = component.schema;
      pending.push(...component.refs);
    }
    return Object.keys(defs).length ? { ...schema, $defs: sortKeys(defs) } : schema;
  }

  /** The document's own schema of a component, as an object (for reading its properties). */
  source(name: string): SchemaObject | undefined {
    return this.components[name];
  }

  private component(name: string): { schema: JsonSchema; refs: Set<string> } {
    let entry = this.converted.get(name);
    if (!entry) {
      const source = this.components[name];
      if (!source) throw new Error(`OpenAPI: schema "${name}" is referenced but not defined.`);
      const refs = new Set<string>();
      entry = { schema: this.convert(source, refs), refs };
      this.converted.set(name, entry);
    }
    return entry;
  }

  private nullable(schema: JsonSchema, nullable: boolean): JsonSchema {
    if (!nullable) return schema;
    // A combinator or reference would still refuse null beside `type: [..., 'null']`: those get a null alternative.
    if (typeof schema.type === 'string' && !COMBINED.some((key) => key in schema)) {
      const values = schema.enum as unknown[] | undefined;
      return { ...schema, type: [schema.type, 'null'], ...(values && !values.includes(null) ? { enum: [...values, null] } : {}) };
    }
    return { anyOf: [schema, { type: 'null' }] };
  }
}

export function componentName(ref: string): string {
  if (!ref.startsWith(COMPONENT_REF)) throw new Error(`OpenAPI: unsupported reference "${ref}".`);
  return ref.slice(COMPONENT_REF.length);
}

const sortKeys = <T>(record: Record<string, T>): Record<string, T> => Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
