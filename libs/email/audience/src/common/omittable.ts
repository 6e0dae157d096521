import { ValidateIf } from 'class-validator';

/**
 * The property may be left out, but `null` is validated like any other value (and so rejected with a 400 naming
 * the field). `@IsOptional()` skips validation for `null` too, which let `null` reach non-null columns.
 */
export const Omittable = () => ValidateIf((_: object, value: unknown) => value !== undefined);
