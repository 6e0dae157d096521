/** An OAuth protocol error, answered as `{error, error_description}` (RFC 6749 §5.2, RFC 7591 §3.2.2). */
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
  }

  toJSON(): { error: string; error_description: string } {
    return { error: this.error, error_description: this.description };
  }
}
