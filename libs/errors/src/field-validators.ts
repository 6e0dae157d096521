import { Matches, ValidateIf, ValidationOptions } from 'class-validator';

/** A string with at least one non-space character (`@IsNotEmpty()` lets "   " through, which trims to nothing). */
export const NotBlank = (options: ValidationOptions = {}) => Matches(/\S/, { message: '$property must not be blank', ...options });

/**
 * The property may be left out, but `null` is validated like any other value (and so rejected with a 400 naming
 * the field). `@IsOptional()` skips validation for `null` too, which let `null` reach non-null columns.
 */
export const Omittable = () => ValidateIf((_: object, value: unknown) => value !== undefined);
