import type { DraftSchema } from '@forms/draft-schema';
import type { FormRow } from './forms.repository';

/** A form is a draft until first published; closing stops submissions until it is reopened. */
export const FORM_STATUSES = ['draft', 'published', 'closed'] as const;

/** `data` of every form response. */
export interface FormSummary {
  id: string;
  workspace_id: string;
  title: string;
  status: (typeof FORM_STATUSES)[number];
  /** Unix seconds. */
  draft_updated_at: number;
  draft_revision: number;
  published_version: number;
  published_at: string | null;
  public_id: string;
  public_url: string;
  responses_count: number;
}

export interface FormDetail {
  data: FormSummary;
  draft_schema: DraftSchema;
  published_schema: DraftSchema | null;
}

export const unixSeconds = (at: Date) => Math.floor(at.getTime() / 1000);

export const publicUrl = (publicBaseUrl: string, publicId: string) => `${publicBaseUrl}/f/${publicId}`;

export function toSummary(form: FormRow, responsesCount: number, publicBaseUrl: string): FormSummary {
  return {
    id: form.id,
    workspace_id: form.workspace_id,
    title: form.title,
    status: form.status,
    draft_updated_at: unixSeconds(form.draft_updated_at),
    draft_revision: form.draft_revision,
    published_version: form.published_version,
    published_at: form.published_at?.toISOString() ?? null,
    public_id: form.public_id,
    public_url: publicUrl(publicBaseUrl, form.public_id),
    responses_count: responsesCount,
  };
}
