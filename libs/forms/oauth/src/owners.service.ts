import { Injectable } from '@nestjs/common';
import { FormsErrors } from '@forms/contracts';
import { hashPassword, MIN_PASSWORD_LENGTH, verifyAgainstDecoy, verifyPassword } from '@shared/browser-session';
import { OAuthRepository } from './oauth.repository';

const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** The owner accounts' browser sign-in: passwords (argon2id) set by an administrator, checked on the sign-in page. */
@Injectable()
export class OwnerSignIn {
  constructor(private readonly repository: OAuthRepository) {}

  /** Admin: sets (or replaces) the password of the owner with this email; their open sessions end. */
  async setPassword(email: string, password: string): Promise<{ owner_id: string; email: string }> {
    const owner = await this.repository.findOwnerByEmail(normalizeEmail(email));
    if (!owner) throw FormsErrors.invalid('validation_failed', 'No owner account has this email address.', 'email');
    if (password.length < MIN_PASSWORD_LENGTH)
      throw FormsErrors.invalid('validation_failed', `The password must be at least ${MIN_PASSWORD_LENGTH} characters.`, 'password');
    await this.repository.setPassword(owner.id, await hashPassword(password));
    await this.repository.deleteSessionsOf(owner.id);
    return { owner_id: owner.id, email: owner.email };
  }

  /** The owner's id when the password matches; an unknown address or an owner without a password costs the same time. */
  async checkPassword(email: string, password: string): Promise<string | null> {
    const owner = await this.repository.findOwnerByEmail(normalizeEmail(email));
    if (!owner?.password) return verifyAgainstDecoy(password).then(() => null);
    return (await verifyPassword(owner.password.password_hash, password)) ? owner.id : null;
  }

  findOwner(ownerId: string) {
    return this.repository.findOwner(ownerId);
  }

  workspacesOf(ownerId: string) {
    return this.repository.workspacesOf(ownerId);
  }
}
