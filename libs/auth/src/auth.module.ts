import { CanActivate, DynamicModule, Module, ModuleMetadata, Type } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { AuthChangesModule } from './auth-changes';
import { BearerStrategy } from './bearer.strategy';
import { FailedAuthLimiter } from './failed-authentication';
import { BearerAuthGuard, ScopeGuard } from './guards';
import { CREDENTIAL_VERIFIER, CredentialVerifier } from './principal';

@Module({})
export class AuthModule {
  /**
   * Installs bearer authentication and scope checks on every route of the app; `after` adds guards that
   * need the principal (rate limiting), run in the given order after those two.
   */
  static forRoot(options: { imports?: ModuleMetadata['imports']; verifier: Type<CredentialVerifier>; after?: Type<CanActivate>[] }): DynamicModule {
    return {
      module: AuthModule,
      imports: [PassportModule, AuthChangesModule, ...(options.imports ?? [])],
      providers: [
        { provide: CREDENTIAL_VERIFIER, useExisting: options.verifier },
        FailedAuthLimiter,
        BearerStrategy,
        { provide: APP_GUARD, useClass: BearerAuthGuard },
        { provide: APP_GUARD, useClass: ScopeGuard },
        ...(options.after ?? []).map((guard) => ({ provide: APP_GUARD, useClass: guard })),
      ],
      exports: [CREDENTIAL_VERIFIER, BearerStrategy],
    };
  }
}
