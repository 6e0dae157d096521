import { Injectable } from '@nestjs/common';
import { hashPassword, MIN_PASSWORD_LENGTH, verifyAgainstDecoy, verifyPassword } from '@shared/browser-session';
import { IdGenerator } from '@shared/core';
import { isUniqueViolation } from '@shared/errors';
import { EmailErrors } from '@email/contracts';
import { OAuthRepository } from './oauth.repository';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** People who sign in to the browser pages, and the workspaces they belong to. */
@Injectable()
export class UsersService {
  constructor(
    private readonly repository: OAuthRepository,
    private readonly ids: IdGenerator,
  ) {}

  /** Admin: creates a person as a member of the named workspaces, or adds an existing one to them. */
  async createUser(input: {
    email: string;
    name: string;
    password: string;
    workspaceIds: string[];
  }): Promise<{ user_id: string; created: boolean; workspace_ids: string[] }> {
    const email = normalizeEmail(input.email);
    if (!EMAIL_PATTERN.test(email) || email.length > 254) throw EmailErrors.invalid('validation_failed', 'A valid email address is required.', 'email');
    if (input.workspaceIds.length === 0) throw EmailErrors.invalid('validation_failed', 'Name at least one workspace.', 'workspace');
    for (const workspaceId of input.workspaceIds) {
      if (!(await this.repository.workspaceExists(workspaceId))) throw EmailErrors.notFound('workspace', workspaceId);
    }
    const existing = await this.repository.findUserByEmail(email);
    if (existing) {
      for (const workspaceId of input.workspaceIds) await this.repository.addMembership(existing.id, workspaceId);
      return { user_id: existing.id, created: false, workspace_ids: input.workspaceIds };
    }
    if (input.password.length < MIN_PASSWORD_LENGTH)
      throw EmailErrors.invalid('validation_failed', `The password must be at least ${MIN_PASSWORD_LENGTH} characters.`, 'password');
    const name = input.name.trim() || email;
    const user = { id: this.ids.newId('usr'), email, name: name.slice(0, 200), password_hash: await hashPassword(input.password) };
    try {
      await this.repository.createUser(user, input.workspaceIds);
    } catch (error) {
      if (isUniqueViolation(error)) throw EmailErrors.invalid('validation_failed', 'A user with this email address was created meanwhile.', 'email');
      throw error;
    }
    return { user_id: user.id, created: true, workspace_ids: input.workspaceIds };
  }

  /** The user's id when the password matches; an unknown address costs the same time as a wrong password. */
  async checkPassword(email: string, password: string): Promise<string | null> {
    const user = await this.repository.findUserByEmail(normalizeEmail(email));
    if (!user) return verifyAgainstDecoy(password).then(() => null);
    return (await verifyPassword(user.password_hash, password)) ? user.id : null;
  }

  findUser(userId: string) {
    return this.repository.findUser(userId);
  }

  workspacesOf(userId: string) {
    return this.repository.workspacesOf(userId);
  }
}
