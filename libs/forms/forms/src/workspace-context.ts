import { Injectable } from '@nestjs/common';
import { FormsErrors } from '@forms/contracts';
import type { Principal } from '@shared/auth';
import { trustedWorkspaceId, WorkspaceContext } from '@shared/core';
import { MembershipsRepository } from './memberships.repository';
import { PublishedForms } from './published-forms';
import { WorkspaceAccess } from './workspace-access';
import { assertRoleAllows, Permission, WorkspacePlan, WorkspaceRole } from './workspace-roles';

/** The workspace a forms request acts in, with the caller's membership there already checked. */
export interface FormsWorkspaceContext extends WorkspaceContext {
  /** The caller: the account that owns the key. */
  readonly ownerId: string;
  readonly role: WorkspaceRole;
  readonly plan: WorkspacePlan;
  readonly principal: Principal;
}

/**
 * Finds the workspace a request is about and checks the caller's membership and role there, once. The only place
 * (with the public form path and the worker) that turns a workspace id into a trusted one.
 */
@Injectable()
export class WorkspaceContextResolver {
  constructor(
    private readonly memberships: MembershipsRepository,
    private readonly access: WorkspaceAccess,
    private readonly published: PublishedForms,
  ) {}

  /**
   * The form's workspace, with the caller's role read live. A missing form and one in a workspace the caller is not a
   * member of are the same 404, so ids of other workspaces' forms reveal nothing; a role short of `permission` is 403.
   */
  async forForm(principal: Principal, formId: string, permission: Permission): Promise<FormsWorkspaceContext> {
    const found = await this.memberships.formWorkspace(principal.subjectId, formId);
    if (!found || !found.role) throw FormsErrors.notFound('form', formId);
    assertRoleAllows(found.role, permission);
    return this.context(principal, found.workspaceId, found.role, found.plan);
  }

  /** As `forForm`, through the published-form and membership caches (the submission hot path). */
  async forPublishedForm(principal: Principal, formId: string, permission: Permission): Promise<FormsWorkspaceContext> {
    const form = await this.published.byFormId(formId);
    const membership = form && (await this.access.membership(principal.subjectId, form.workspaceId));
    if (!membership) throw FormsErrors.notFound('form', formId);
    assertRoleAllows(membership.role, permission);
    return this.context(principal, membership.workspace_id, membership.role, membership.plan);
  }

  /** Where a new form goes: the workspace the client names, else the caller's only workspace where they can edit. */
  async forCreate(principal: Principal, named: string | undefined): Promise<FormsWorkspaceContext> {
    const memberships = await this.access.memberships(principal.subjectId);
    if (named) {
      const membership = memberships.find((m) => m.workspace_id === named);
      if (!membership) throw FormsErrors.notFound('workspace', named);
      assertRoleAllows(membership.role, 'edit');
      return this.context(principal, named, membership.role, membership.plan);
    }
    const writable = memberships.filter((m) => m.role !== 'viewer');
    if (writable.length === 1) return this.context(principal, writable[0].workspace_id, writable[0].role, writable[0].plan);
    if (writable.length === 0) {
      throw FormsErrors.fail('no_writable_workspace', 'You have no workspace where you can create forms (an owner or editor role is needed).');
    }
    throw FormsErrors.invalid('workspace_required', 'You can create forms in several workspaces; send workspaceId to choose one.', 'workspaceId');
  }

  /** What a list covers: the workspace the client names, else every workspace the caller is a member of. */
  async forList(principal: Principal, named: string | undefined): Promise<FormsWorkspaceContext[]> {
    const memberships = await this.access.memberships(principal.subjectId);
    const listed = named ? memberships.filter((m) => m.workspace_id === named) : memberships;
    if (named && !listed.length) throw FormsErrors.notFound('workspace', named);
    return listed.map((m) => this.context(principal, m.workspace_id, m.role, m.plan));
  }

  private context(principal: Principal, workspaceId: string, role: WorkspaceRole, plan: WorkspacePlan): FormsWorkspaceContext {
    return { workspaceId: trustedWorkspaceId(workspaceId), ownerId: principal.subjectId, role, plan, principal };
  }
}
