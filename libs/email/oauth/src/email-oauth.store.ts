import { Injectable } from '@nestjs/common';
import { AuthChangeBus, AuthServices } from '@shared/auth';
import { Clock } from '@shared/core';
import { RepositoryOAuthStore } from '@shared/oauth';
import { OAuthRepository } from './oauth.repository';

/** The shared OAuth and browser-session mechanisms' storage, on the email tables; revocations reach every replica's cache. */
@Injectable()
export class EmailOAuthStore extends RepositoryOAuthStore {
  constructor(repository: OAuthRepository, changes: AuthChangeBus, clock: Clock) {
    super(
      repository,
      () => clock.now(),
      (id) => changes.publish(AuthServices.email, { kind: 'credential', id }),
    );
  }
}
