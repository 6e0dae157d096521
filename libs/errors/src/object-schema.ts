import { ApiSchema, ApiSchemaOptions } from '@nestjs/swagger';

const CLOSED_OBJECT = Symbol('closed-object');

export interface ClosedObjectOptions {
  /** Documented as `minProperties`; the use case refuses an emptier body with its own error code. */
  minProperties?: number;
}

/**
 * The DTO's object refuses properties it does not declare. One decorator for both readers, so the document and
 * the behaviour cannot disagree: the validation pipe (in its `per-schema` mode) answers 400 `unknown_property`,
 * and the OpenAPI schema says `additionalProperties: false`. A DTO without it is open: unknown properties are
 * dropped before the handler sees the body. Read from the class itself, never inherited, as @nestjs/swagger does.
 */
export function ClosedObject(options: ClosedObjectOptions = {}): ClassDecorator {
  // @nestjs/swagger copies every key of a class's @ApiSchema options into its schema; its type names only two.
  const schema = { additionalProperties: false, ...options } as ApiSchemaOptions;
  const document = ApiSchema(schema);
  return (target) => {
    Reflect.defineMetadata(CLOSED_OBJECT, true, target);
    document(target);
  };
}

export const isClosedObject = (type: unknown): boolean => typeof type === 'function' && Reflect.getOwnMetadata(CLOSED_OBJECT, type) === true;
