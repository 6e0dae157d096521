import { Matches, ValidationOptions } from 'class-validator';

/** A string with at least one non-space character (`@IsNotEmpty()` lets "   " through, which trims to nothing). */
export const NotBlank = (options: ValidationOptions = {}) => Matches(/\S/, { message: '$property must not be blank', ...options });
