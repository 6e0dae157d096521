import { Injectable } from '@nestjs/common';
import { FormsPrisma } from '@forms/data-access';
import type { WorkspaceMembership, WorkspacePlan, WorkspaceRole } from './workspace-roles';

/** Where a form lives and what the caller may do there, read live. */
export interface FormWorkspace {
  workspaceId: string;
  plan: WorkspacePlan;
  /** The caller's role in the form's workspace; null when the caller is not a member. */
  role: WorkspaceRole | null;
}

/**
 * The reads a request's workspace is resolved from: they start from the caller (an owner) or a form id, because the
 * workspace is what they find out. Everything else reads through a workspace id.
 */
@Injectable()
export class MembershipsRepository {
  constructor(private readonly prisma: FormsPrisma) {}

  /** The owner's memberships, oldest first, with each workspace's name and plan. */
  async ofOwner(ownerId: string): Promise<WorkspaceMembership[]> {
    const rows = await this.prisma.membership.findMany({
      where: { owner_id: ownerId },
      include: { workspace: { select: { name: true, plan: true } } },
      orderBy: { created_at: 'asc' },
    });
    return rows.map((m) => ({ workspace_id: m.workspace_id, name: m.workspace.name, plan: m.workspace.plan, role: m.role }));
  }

  /** The form's workspace with the owner's role there, in one read; null when no form has this id. */
  async formWorkspace(ownerId: string, formId: string): Promise<FormWorkspace | null> {
    const form = await this.prisma.form.findUnique({
      where: { id: formId },
      select: { workspace_id: true, workspace: { select: { plan: true, memberships: { where: { owner_id: ownerId }, select: { role: true } } } } },
    });
    if (!form) return null;
    return { workspaceId: form.workspace_id, plan: form.workspace.plan, role: form.workspace.memberships[0]?.role ?? null };
  }
}
