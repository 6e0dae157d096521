import { ArgumentMetadata, ValidationError, ValidationPipe, ValidationPipeOptions } from '@nestjs/common';
import type { ValidatorOptions } from '@nestjs/common/interfaces/external/validator-options.interface';
import { SharedErrors } from './error-codes';
import { isClosedObject } from './object-schema';
import { findUnstorableInput } from './storable-input';

/**
 * Type checks, containers first: when a value of the wrong type fails one of these and other rules too (a length, a
 * size, "each value"), the type is the reason to give; class-validator lists the constraints in no useful order.
 */
const TYPE_CONSTRAINTS = ['isArray', 'isObject', 'isString', 'isInt', 'isNumber', 'isBoolean'];

/** Depth-first path of the first failing property, e.g. `consent_evidence.collected_at` or `tags[2]`. */
export function firstFailure(errors: ValidationError[], parent = ''): { field: string; reason: string } | undefined {
  for (const error of errors) {
    const field = /^\d+$/.test(error.property) ? `${parent}[${error.property}]` : parent ? `${parent}.${error.property}` : error.property;
    if (error.constraints && Object.keys(error.constraints).length) {
      // A missing value fails every constraint; the first declared one (often a length) would mislead.
      if ('value' in error && error.value === undefined && !error.constraints.whitelistValidation) return { field, reason: `required: ${field} is required` };
      const typeCheck = TYPE_CONSTRAINTS.find((name) => name in error.constraints!);
      const [constraint, message] = typeCheck ? [typeCheck, error.constraints[typeCheck]] : Object.entries(error.constraints)[0];
      const reason = constraint === 'whitelistValidation' ? 'unknown_property' : constraint;
      return { field, reason: message ? `${reason}: ${message}` : reason };
    }
    const nested = firstFailure(error.children ?? [], field);
    if (nested) return nested;
  }
  return undefined;
}

/**
 * What the pipe does with a property the DTO does not declare: `refuse` it everywhere (400 `unknown_property`), or
 * decide `per-schema` — refuse it only in a DTO marked `@ClosedObject()` and drop it from every other one.
 */
export type UnknownProperties = 'refuse' | 'per-schema';

/**
 * Takes the unknown-property refusals of open objects out of the errors, dropping those properties from the value
 * the handler gets. class-validator applies one whitelist rule to a whole tree, so the choice is made per object
 * here, by the class of the object that holds the property.
 */
export function dropOpenObjectRefusals(errors: ValidationError[]): ValidationError[] {
  return errors.filter((error) => {
    const { whitelistValidation, ...others } = error.constraints ?? {};
    if (whitelistValidation !== undefined && error.target && !isClosedObject(error.target.constructor)) {
      delete (error.target as Record<string, unknown>)[error.property];
      error.constraints = others;
    }
    error.children = dropOpenObjectRefusals(error.children ?? []);
    return Object.keys(error.constraints ?? {}).length > 0 || error.children.length > 0;
  });
}

/**
 * Refuses input the database cannot store (NUL, lone surrogates) or the validators cannot walk (extreme depth) before
 * validating. It runs for every handler argument, DTO or not, so untyped bodies and path ids are covered too; a
 * Fastify hook would do the same for every request, at a measurable cost per request.
 */
class StorableInputValidationPipe extends ValidationPipe {
  constructor(
    options: ValidationPipeOptions,
    private readonly unknownProperties: UnknownProperties,
  ) {
    super(options);
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const problem = findUnstorableInput(value, metadata.type === 'body' ? '' : (metadata.data ?? ''));
    if (problem) throw problem;
    return super.transform(value, metadata);
  }

  protected override async validate(object: object, validatorOptions?: ValidatorOptions): Promise<ValidationError[]> {
    if (this.unknownProperties === 'refuse') return super.validate(object, validatorOptions);
    // The holder of each refused property is needed to tell open objects from closed ones.
    const errors = await super.validate(object, { ...validatorOptions, validationError: { target: true, value: true } });
    return dropOpenObjectRefusals(errors);
  }
}

/** DTO validation: values transformed, unknown properties handled as `unknownProperties` says, first problem named in the envelope. */
export function createValidationPipe(unknownProperties: UnknownProperties = 'refuse'): ValidationPipe {
  return new StorableInputValidationPipe(
    {
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      // Values are kept only to tell a missing property apart (firstFailure); they never reach the response.
      validationError: { target: false, value: true },
      exceptionFactory: (errors) => {
        const failure = firstFailure(errors) ?? { field: 'body', reason: 'invalid' };
        return SharedErrors.fail('validation_failed', `Invalid value for "${failure.field}".`, { details: failure });
      },
    },
    unknownProperties,
  );
}
