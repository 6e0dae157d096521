import { FormsErrors } from '@forms/contracts';

export type WorkspaceRole = 'owner' | 'editor' | 'viewer';
export type WorkspacePlan = 'free' | 'pro' | 'business';

/** What each workspace role may do; a key's scopes are checked separately (both must allow). */
export const ROLE_PERMISSIONS = {
  view: ['owner', 'editor', 'viewer'],
  edit: ['owner', 'editor'],
} as const satisfies Record<string, readonly WorkspaceRole[]>;

export type Permission = keyof typeof ROLE_PERMISSIONS;

export function assertRoleAllows(role: WorkspaceRole, permission: Permission): void {
  if ((ROLE_PERMISSIONS[permission] as readonly WorkspaceRole[]).includes(role)) return;
  throw FormsErrors.fail('insufficient_role', `Your ${role} role in this workspace does not allow this; an owner or editor role is needed.`, {
    extra: { role, required_roles: [...ROLE_PERMISSIONS[permission]] },
  });
}

export interface WorkspaceMembership {
  workspace_id: string;
  name: string;
  plan: WorkspacePlan;
  role: WorkspaceRole;
}
