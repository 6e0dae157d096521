import { randomUUID } from 'node:crypto';
import { FormsPrisma, Prisma } from '@forms/data-access';
import { parseDraftSchema } from '@forms/draft-schema';
import type { FormsApiHarness } from './helpers';

/**
 * A draft form in `workspaceId` holding `draft` as stored, past the rules the API applies to payment fields: as a form
 * holds one whose provider was connected when it was added, or one stored before those rules.
 */
export async function formWithStoredDraft(api: FormsApiHarness, draft: object, workspaceId = api.main.workspaceId): Promise<string> {
  const formId = (await api.as().post('/api/v1/forms').send({ workspaceId }).expect(201)).body.data.id as string;
  await storeDraft(api, formId, draft);
  return formId;
}

/** Stores `draft` as the form's draft past the API's rules, as a new revision (as another writer's edit would be). */
export async function storeDraft(api: FormsApiHarness, formId: string, draft: object): Promise<void> {
  const parsed = parseDraftSchema(draft, (prefix) => `${prefix}_${randomUUID().replaceAll('-', '')}`);
  if (!parsed.ok) throw new Error(`not a draft: ${JSON.stringify(parsed.issues)}`);
  await api.app.get(FormsPrisma).form.update({
    where: { id: formId },
    data: { draft_schema: parsed.value as unknown as Prisma.InputJsonValue, draft_revision: { increment: 1 } },
  });
}
