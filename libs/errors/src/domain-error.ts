/** The error `type` values of the envelope, each with its HTTP status. */
export const ERROR_STATUS = {
  invalid_request: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found: 404,
  conflict: 409,
  api_error: 500,
} as const;

export type ErrorType = keyof typeof ERROR_STATUS;

export interface ErrorDetails {
  field?: string;
  reason?: string;
  resource?: { type: string; id: string };
}

export interface ErrorBody {
  type: ErrorType;
  code: string;
  message: string;
  details?: ErrorDetails;
  [extra: string]: unknown;
}

/**
 * A typed error the exception filter turns into the `{error:{...}}` envelope.
 * `extra` holds envelope members beyond type/code/message/details (recovery fields and the like).
 */
export class DomainError extends Error {
  constructor(
    readonly type: ErrorType,
    readonly code: string,
    message: string,
    readonly details?: ErrorDetails,
    readonly extra: Record<string, unknown> = {},
    readonly status: number = ERROR_STATUS[type],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }

  toBody(): ErrorBody {
    return { type: this.type, code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}), ...this.extra };
  }
}
