import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-http-bearer';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { DomainError } from '@shared/errors';
import { AuthChange, AuthChangeBus } from './auth-changes';
import { FailedAuthLimiter, RefusedCredentials } from './failed-authentication';
import { CREDENTIAL_VERIFIER, CredentialVerifier, Principal } from './principal';
import { PrincipalCache } from './principal-cache';
import { bearerToken } from './guards';

/**
 * Verifies bearer credentials: a cached principal first (evicted on revocation), then a remembered refusal, then the
 * per-IP failure limit, and only then the service's verifier (the database).
 */
@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  private readonly cache: PrincipalCache;
  private readonly refused: RefusedCredentials;

  constructor(
    @Inject(CREDENTIAL_VERIFIER) private readonly verifier: CredentialVerifier,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly failures: FailedAuthLimiter,
    changes: AuthChangeBus,
  ) {
    super({ passReqToCallback: true });
    this.cache = new PrincipalCache(config.authCacheTtlMs);
    this.refused = new RefusedCredentials(config.authNegativeCacheTtlMs);
    changes.listen(verifier.authService, (change) => this.cache.evict(change ? (p) => revokedBy(change, p) : undefined));
  }

  /**
   * The same verification for a route that authenticates only some of its requests itself (the MCP endpoint:
   * tool calls need a credential, listing tools does not). Throws the 401 (or 429) a guarded route would answer.
   */
  verifyAuthorization(ip: string, authorization: string | undefined): Promise<Principal> {
    return this.validate({ ip }, bearerToken(authorization));
  }

  async validate(request: { ip: string }, token: string): Promise<Principal> {
    const key = PrincipalCache.keyOf(token);
    let principal = this.cache.get(key);
    if (!principal) {
      this.failures.assertAllowed(request.ip);
      const refusal = this.refused.get(key);
      if (refusal) {
        await this.failures.recordFailure(request.ip);
        throw refusal;
      }
      const generation = this.cache.generation;
      try {
        principal = await this.verifier.verify(token);
      } catch (error) {
        if (error instanceof DomainError && error.status === 401) {
          this.refused.set(key, error);
          await this.failures.recordFailure(request.ip);
        }
        throw error;
      }
      this.cache.set(key, principal, generation);
    }
    this.verifier.markUsed?.(principal);
    return principal;
  }
}

/** Role changes do not touch principals (roles are read by the service, see WorkspaceAccess in forms). */
function revokedBy(change: AuthChange, principal: Principal): boolean {
  return change.kind === 'credential' && principal.credentialId === change.id;
}
