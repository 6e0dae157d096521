import type { Principal } from '@shared/auth';
import { insertForm, useFormsDatabase, WORKSPACE_A, WORKSPACE_B } from '../../data-access/src/testing/forms-database.fixture';
import { MembershipsRepository } from './memberships.repository';
import type { PublishedForms } from './published-forms';
import { PublishedFormsRepository } from './published-forms.repository';
import type { WorkspaceAccess } from './workspace-access';
import { WorkspaceContextResolver } from './workspace-context';

const principal = (ownerId: string) => ({ subjectId: ownerId }) as Principal;

describe('resolving a request’s workspace (real PostgreSQL)', () => {
  const db = useFormsDatabase();
  let memberships: MembershipsRepository;
  let resolver: WorkspaceContextResolver;
  beforeAll(async () => {
    memberships = new MembershipsRepository(db.prisma());
    // forForm reads live through the repository; the caches are for the other entry points.
    resolver = new WorkspaceContextResolver(memberships, {} as WorkspaceAccess, {} as PublishedForms);
    await db.prisma().owner.createMany({
      data: ['usr_a', 'usr_b', 'usr_viewer'].map((id) => ({ id, email: `${id}@example.com`, username: id })),
    });
    await db.prisma().membership.createMany({
      data: [
        { owner_id: 'usr_a', workspace_id: WORKSPACE_A, role: 'owner' },
        { owner_id: 'usr_b', workspace_id: WORKSPACE_B, role: 'owner' },
        { owner_id: 'usr_viewer', workspace_id: WORKSPACE_A, role: 'viewer' },
      ],
    });
    await insertForm(db.prisma(), WORKSPACE_A, 'frm_of_a');
  });

  it('finds a form’s workspace with the caller’s role there, none for a non-member, nothing for an unknown form', async () => {
    expect(await memberships.formWorkspace('usr_a', 'frm_of_a')).toEqual({ workspaceId: WORKSPACE_A, plan: 'free', role: 'owner' });
    expect(await memberships.formWorkspace('usr_b', 'frm_of_a')).toEqual({ workspaceId: WORKSPACE_A, plan: 'free', role: null });
    expect(await memberships.formWorkspace('usr_a', 'frm_unknown')).toBeNull();
    expect((await memberships.ofOwner('usr_b')).map((m) => m.workspace_id)).toEqual([WORKSPACE_B]);
  });

  it('gives a member the form’s workspace; a stranger gets the 404 of a missing form, a viewer 403 for an edit', async () => {
    expect(await resolver.forForm(principal('usr_a'), 'frm_of_a', 'edit')).toMatchObject({
      workspaceId: WORKSPACE_A,
      ownerId: 'usr_a',
      role: 'owner',
      plan: 'free',
    });
    const stranger = await resolver.forForm(principal('usr_b'), 'frm_of_a', 'view').catch((error: unknown) => error);
    const missing = await resolver.forForm(principal('usr_b'), 'frm_unknown', 'view').catch((error: unknown) => error);
    expect(stranger).toMatchObject({ status: 404, code: 'form_not_found' });
    expect(missing).toMatchObject({ status: 404, code: 'form_not_found' });
    await expect(resolver.forForm(principal('usr_viewer'), 'frm_of_a', 'edit')).rejects.toMatchObject({ status: 403, code: 'insufficient_role' });
    expect(await resolver.forForm(principal('usr_viewer'), 'frm_of_a', 'view')).toMatchObject({ workspaceId: WORKSPACE_A, role: 'viewer' });
  });

  it('reads a published form by its public id, naming the workspace the form belongs to', async () => {
    const published = new PublishedFormsRepository(db.prisma());
    expect(await published.byPublicId('pub_frm_of_a')).toMatchObject({
      formId: 'frm_of_a',
      workspaceId: WORKSPACE_A,
      publicId: 'pub_frm_of_a',
      version: 0,
      schema: null,
    });
    expect(await published.byPublicId('pub_unknown')).toBeNull();
    expect(await published.publicIdOf('frm_of_a')).toBe('pub_frm_of_a');
  });
});
