import { ValidationError, ValidationPipe } from '@nestjs/common';
import { DomainError } from './domain-error';
import { ErrorCodes } from './error-codes';

/** Depth-first path of the first failing property, e.g. `consent_evidence.collected_at` or `tags[2]`. */
export function firstFailure(errors: ValidationError[], parent = ''): { field: string; reason: string } | undefined {
  for (const error of errors) {
    const field = /^\d+$/.test(error.property) ? `${parent}[${error.property}]` : parent ? `${parent}.${error.property}` : error.property;
    if (error.constraints && Object.keys(error.constraints).length) {
      const [constraint, message] = Object.entries(error.constraints)[0];
      const reason = constraint === 'whitelistValidation' ? 'unknown_property' : constraint;
      return { field, reason: message ? `${reason}: ${message}` : reason };
    }
    const nested = firstFailure(error.children ?? [], field);
    if (nested) return nested;
  }
  return undefined;
}

/** Strict DTO validation: unknown properties rejected, values transformed, first problem named in the envelope. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => {
      const failure = firstFailure(errors) ?? { field: 'body', reason: 'invalid' };
      return new DomainError('invalid_request', ErrorCodes.validationFailed, `Invalid value for "${failure.field}".`, failure);
    },
  });
}
