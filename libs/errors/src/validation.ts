import { ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import { SharedErrors } from './error-codes';

import { findUnstorableInput } from './storable-input';

/** Depth-first path of the first failing property, e.g. `consent_evidence.collected_at` or `tags[2]`. */
export function firstFailure(errors: ValidationError[], parent = ''): { field: string; reason: string } | undefined {
  for (const error of errors) {
    const field = /^\d+$/.test(error.property) ? `${parent}[${error.property}]` : parent ? `${parent}.${error.property}` : error.property;
    if (error.constraints && Object.keys(error.constraints).length) {
      // A missing value fails every constraint; the first declared one (often a length) would mislead.
      if ('value' in error && error.value === undefined && !error.constraints.whitelistValidation) return { field, reason: `required: ${field} is required` };
      const [constraint, message] = Object.entries(error.constraints)[0];
      const reason = constraint === 'whitelistValidation' ? 'unknown_property' : constraint;
      return { field, reason: message ? `${reason}: ${message}` : reason };
    }
    const nested = firstFailure(error.children ?? [], field);
    if (nested) return nested;
  }
  return undefined;
}

/**
 * Refuses input the database cannot store (NUL, lone surrogates) or the validators cannot walk (extreme depth) before
 * validating. It runs for every handler argument, DTO or not, so untyped bodies and path ids are covered too; a
 * Fastify hook would do the same for every request, at a measurable cost per request.
 */
class StorableInputValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const problem = findUnstorableInput(value, metadata.type === 'body' ? '' : (metadata.data ?? ''));
    if (problem) throw problem;
    return super.transform(value, metadata);
  }
}

/** Strict DTO validation: unknown properties rejected, values transformed, first problem named in the envelope. */
export function createValidationPipe(): ValidationPipe {
  return new StorableInputValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    // Values are kept only to tell a missing property apart (firstFailure); they never reach the response.
    validationError: { target: false, value: true },
    exceptionFactory: (errors) => {
      const failure = firstFailure(errors) ?? { field: 'body', reason: 'invalid' };
      return SharedErrors.fail('validation_failed', `Invalid value for "${failure.field}".`, { details: failure });
    },
  });
}
