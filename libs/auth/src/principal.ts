import { DomainError } from '@shared/errors';
import type { AuthService } from './auth-changes';

/** Who is calling: the verified credential, whom it belongs to, and its scopes. */
export interface Principal {
  credentialType: string;
  credentialId: string;
  /**
   * Whom the credential belongs to: the workspace in email, the owner account in forms. The tenant a request runs in
   * is its `WorkspaceContext`, which each service resolves from this once per request.
   */
  subjectId: string;
  scopes: readonly string[];
  expiresAt: Date | null;
  /** The service's own view of the credential (for capability documents and the like). */
  credential: unknown;
}

/** Each service supplies how to verify its bearer credentials and how to explain a missing scope. */
export interface CredentialVerifier {
  /** Whose revocations evict this service's cached principals (see AuthChangeBus). */
  readonly authService: AuthService;
  /** Returns the principal, or throws an authentication DomainError (401). */
  verify(token: string): Promise<Principal>;
  /** Builds the 403 error for a principal lacking scopes, with whatever recovery hints the service offers. */
  insufficientScope(principal: Principal, required: readonly string[], missing: readonly string[]): DomainError;
  /** Called once per authenticated request, cheaply (no database write per request). */
  markUsed?(principal: Principal): void;
}

export const CREDENTIAL_VERIFIER = Symbol('CREDENTIAL_VERIFIER');
