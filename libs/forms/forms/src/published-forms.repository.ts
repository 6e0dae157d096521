import { Injectable } from '@nestjs/common';
import { FormsPrisma } from '@forms/data-access';
import type { DraftSchema } from '@forms/draft-schema';
import type { WorkspacePlan } from './workspace-roles';

/** A form as the public side sees it, with the schema of its latest published version. */
export interface PublishedFormRow {
  formId: string;
  workspaceId: string;
  publicId: string;
  title: string;
  status: 'draft' | 'published' | 'closed';
  /** 0 while the form was never published (then `schema` is null). */
  version: number;
  schema: DraftSchema | null;
  plan: WorkspacePlan;
}

/**
 * The published-form cache's reads. They start from a public id (what an unauthenticated respondent holds; the form
 * row then names its workspace) or from a form id (to find the workspace a caller's request is about, whose
 * membership is checked next), so neither can take a workspace id.
 */
@Injectable()
export class PublishedFormsRepository {
  constructor(private readonly prisma: FormsPrisma) {}

  async byPublicId(publicId: string): Promise<PublishedFormRow | null> {
    const form = await this.prisma.form.findUnique({ where: { public_id: publicId }, include: { workspace: { select: { plan: true } } } });
    if (!form) return null;
    const version =
      form.published_version > 0
        ? await this.prisma.formVersion.findUnique({ where: { form_id_version: { form_id: form.id, version: form.published_version } } })
        : null;
    return {
      formId: form.id,
      workspaceId: form.workspace_id,
      publicId,
      title: form.title,
      status: form.status,
      version: form.published_version,
      schema: (version?.schema as unknown as DraftSchema) ?? null,
      plan: form.workspace.plan,
    };
  }

  async publicIdOf(formId: string): Promise<string | null> {
    const row = await this.prisma.form.findUnique({ where: { id: formId }, select: { public_id: true } });
    return row?.public_id ?? null;
  }
}
