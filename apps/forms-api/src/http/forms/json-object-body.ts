import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { FormsErrors } from '@forms/contracts';

/**
 * Refuses a JSON body that is not an object (a bare `null`, an array, a number). Nest's validation pipe reads a `null`
 * body as `{}`, which made `PATCH null` a write that changed nothing but the revision. Guards run before pipes.
 */
@Injectable()
export class JsonObjectBody implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const { body } = context.switchToHttp().getRequest<{ body?: unknown }>();
    if (body === undefined || (typeof body === 'object' && body !== null && !Array.isArray(body))) return true;
    throw FormsErrors.invalid('validation_failed', 'The body must be a JSON object.', 'body');
  }
}
