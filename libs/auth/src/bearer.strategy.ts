import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-http-bearer';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { CREDENTIAL_VERIFIER, CredentialVerifier, Principal } from './principal';
import { PrincipalCache } from './principal-cache';

@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  private readonly cache: PrincipalCache;

  constructor(
    @Inject(CREDENTIAL_VERIFIER) private readonly verifier: CredentialVerifier,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    super();
    this.cache = new PrincipalCache(config.authCacheTtlMs);
  }

  async validate(token: string): Promise<Principal> {
    const key = PrincipalCache.keyOf(token);
    let principal = this.cache.get(key);
    if (!principal) {
      principal = await this.verifier.verify(token);
      this.cache.set(key, principal);
    }
    this.verifier.markUsed?.(principal);
    return principal;
  }
}
