import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { AudienceDefinition, AudienceRepository, MAX_EXPANDED_CONDITIONS } from '@email/audience-engine';
import { EmailQueues } from '@email/contracts';
import { EmailPrisma } from '@email/data-access';
import { trustedWorkspaceId } from '@shared/core';
import { document, saveConnection, smtpConnection } from './broadcasts-fixtures';
import { emailApi, EmailApiHarness } from './helpers';

const rule = (conditions: object[], match: 'all' | 'any' = 'all') => ({ match: 'all', groups: [{ id: 'g', match, conditions }] });
const inSegment = (id: string) => rule([{ id: 'nested', field: 'segment', operator: 'has_any_of', value: [id] }]);
const EVERYONE = { match: 'all', groups: [] };
/** `times` conditions in one group, each naming the same segment. */
const references = (id: string, times: number) =>
  rule(
    Array.from({ length: times }, (_, i) => ({ id: `ref${i}`, field: 'segment', operator: 'is', value: id })),
    'any',
  );
/** One group of `count` plain conditions. */
const plain = (count: number) =>
  rule(
    Array.from({ length: count }, (_, i) => ({ id: `c${i}`, field: 'subscriber_status', operator: 'is', value: ['Active'] })),
    'any',
  );

describe('email-api: segments', () => {
  let h: EmailApiHarness;
  let prisma: EmailPrisma;
  beforeAll(async () => {
    h = await emailApi();
    prisma = h.app.get(EmailPrisma);
  });
  afterAll(() => h?.close());

  const createSegment = async (name: string, definition: object = EVERYONE, key?: string) =>
    (await h.as(key).post('/v1/segments').send({ name, definition }).expect(201)).body.data;

  describe('records', () => {
    it('create, get, update, list (summaries), delete', async () => {
      const ws = await h.newWorkspace('Records');
      for (const [email, country] of [
        ['de@example.com', 'DE'],
        ['fr@example.com', 'FR'],
        ['us@example.com', 'US'],
      ]) {
        await h.as(ws.api_key).post('/v1/subscribers').send({ email, country }).expect(201);
      }
      const definition = rule([{ id: 'eu', field: 'country', operator: 'in_region', value: 'EU' }]);
      const created = await h.as(ws.api_key).post('/v1/segments').send({ name: 'Europeans', description: 'EU only', definition }).expect(201);
      const segment = created.body.data;
      expect(segment).toEqual({
        self: `/v1/segments/${segment.id}`,
        id: expect.stringMatching(/^seg_/),
        name: 'Europeans',
        description: 'EU only',
        definition,
        confirmed_subscriber_count: 2,
        total_subscriber_count: 2,
        counts_refreshed_at: expect.any(String),
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      expect((await h.as(ws.api_key).get(`/v1/segments/${segment.id}`).expect(200)).body.data).toMatchObject({
        ...segment,
        counts_refreshed_at: expect.any(String),
      });

      const everyone = await h.as(ws.api_key).put(`/v1/segments/${segment.id}`).send({ definition: EVERYONE, description: null }).expect(200);
      expect(everyone.body.data).toMatchObject({ name: 'Europeans', description: null, definition: EVERYONE, total_subscriber_count: 3 });

      const list = await h.as(ws.api_key).get('/v1/segments?search=europ').expect(200);
      expect(list.body).toEqual({
        data: [
          {
            self: `/v1/segments/${segment.id}`,
            id: segment.id,
            name: 'Europeans',
            description: null,
            confirmed_subscriber_count: 3,
            total_subscriber_count: 3,
            created_at: segment.created_at,
            updated_at: expect.any(String),
          },
        ],
        pagination: { has_more: false, next_cursor: null },
      });
      expect((await h.as(ws.api_key).get('/v1/segments?search=nobody').expect(200)).body.data).toEqual([]);

      await h.as(ws.api_key).delete(`/v1/segments/${segment.id}`).expect(204);
      await h.as(ws.api_key).get(`/v1/segments/${segment.id}`).expect(404);
      const again = await h.as(ws.api_key).delete(`/v1/segments/${segment.id}`).expect(404);
      expect(again.body.error.code).toBe('segment_not_found');
    });

    it('replays a create with the same Idempotency-Key instead of creating twice', async () => {
      const send = () => h.as().post('/v1/segments').set('idempotency-key', 'segment-create-1').send({ name: 'Once', definition: EVERYONE });
      const first = await send().expect(201);
      const second = await send().expect(201);
      expect(second.body.data.id).toBe(first.body.data.id);
      expect(await prisma.segment.count({ where: { workspace_id: h.workspaceId, name: 'Once' } })).toBe(1);
    });

    it('serves many concurrent writes in one workspace (they queue on its segment lock, never on the pool)', async () => {
      const ws = await h.newWorkspace('Concurrent');
      const created = await Promise.all(
        Array.from({ length: 16 }, (_, i) =>
          h
            .as(ws.api_key)
            .post('/v1/segments')
            .send({ name: `Concurrent ${i}`, definition: EVERYONE }),
        ),
      );
      expect(created.map((res) => res.status)).toEqual(Array(16).fill(201));
      const ids = created.map((res) => res.body.data.id as string);
      // Eight pairs, each segment pointed at its partner: alone each update is fine, together a pair is a loop, so of
      // each pair the one that takes the lock second is refused.
      const partner = (i: number) => ids[i ^ 1];
      const changed = await Promise.all(
        ids.map((id, i) =>
          h
            .as(ws.api_key)
            .put(`/v1/segments/${id}`)
            .send({ definition: inSegment(partner(i)) }),
        ),
      );
      const outcomes = changed.map((res) => (res.status === 200 ? 'saved' : `${res.status} ${res.body.error?.code}`));
      for (let pair = 0; pair < 16; pair += 2) expect([outcomes[pair], outcomes[pair + 1]].sort()).toEqual(['400 segment_reference_cycle', 'saved']);
    });

    it('409 segment_name_taken on a duplicate name in any case, on create and on update', async () => {
      await createSegment('Unique segment');
      const dup = await h.as().post('/v1/segments').send({ name: 'UNIQUE SEGMENT', definition: EVERYONE }).expect(409);
      expect(dup.body.error).toMatchObject({ type: 'conflict', code: 'segment_name_taken', details: { field: 'name' } });
      const other = await createSegment('Another segment');
      await h.as().put(`/v1/segments/${other.id}`).send({ name: 'unique segment' }).expect(409);
      expect((await h.as().get(`/v1/segments/${other.id}`).expect(200)).body.data.name).toBe('Another segment');
    });

    it('answers bad bodies with a 400 naming the field or the condition, and writes nothing', async () => {
      const before = await prisma.segment.count();
      for (const [body, field] of [
        [{ definition: EVERYONE }, 'name'],
        [{ name: ' ', definition: EVERYONE }, 'name'],
        [{ name: 'x' }, 'definition'],
        [{ name: 'x', definition: null }, 'definition'],
        [{ name: 'x', definition: EVERYONE, colour: 'red' }, 'colour'],
        [{ name: 'x', definition: { match: 'some', groups: [] } }, 'definition.match'],
        [{ name: 'x', definition: { match: 'all', groups: [{ id: 'g', match: 'all', conditions: [] }] } }, 'definition.groups[0].conditions'],
        [{ name: 'x', definition: rule([{ id: 'c', field: 'tag', operator: 'has_any_of', extra: 1 }]) }, 'definition.groups[0].conditions[0].extra'],
      ] as const) {
        const res = await h.as().post('/v1/segments').send(body);
        expect({ status: res.status, field: res.body.error?.details?.field }).toEqual({ status: 400, field });
      }
      const wrongOperator = await h
        .as()
        .post('/v1/segments')
        .send({ name: 'x', definition: rule([{ id: 'status-check', field: 'subscriber_status', operator: 'contains', value: 'Act' }]) })
        .expect(400);
      expect(wrongOperator.body.error).toMatchObject({ code: 'invalid_audience_condition', condition_id: 'status-check' });
      expect(await prisma.segment.count()).toBe(before);

      const segment = await createSegment('Update target');
      const empty = await h.as().put(`/v1/segments/${segment.id}`).send({}).expect(400);
      expect(empty.body.error.code).toBe('empty_update');
      await h.as().put(`/v1/segments/${segment.id}`).send({ definition: null }).expect(400);
      await h.as().put('/v1/segments/seg_missing').send({ name: 'x' }).expect(404);
    });

    it('needs segments:write to change and segments:read to read or preview', async () => {
      const reader = await h.keyWith(['segments:read']);
      await h.as(reader).get('/v1/segments').expect(200);
      await h.as(reader).post('/v1/segments/preview').send({ definition: EVERYONE }).expect(200);
      const refused = await h.as(reader).post('/v1/segments').send({ name: 'No', definition: EVERYONE }).expect(403);
      expect(refused.body.error.type).toBe('permission_error');
      const writerOnly = await h.keyWith(['segments:write']);
      await h.as(writerOnly).post('/v1/segments/preview').send({ definition: EVERYONE }).expect(403);
    });
  });

  describe('nesting', () => {
    it('refuses to delete a segment another segment uses (409 naming it), and allows it once unused', async () => {
      const base = await createSegment('Nest base');
      const user = await createSegment('Nest user', inSegment(base.id));
      const refused = await h.as().delete(`/v1/segments/${base.id}`).expect(409);
      expect(refused.body.error).toMatchObject({ code: 'segment_in_use', used_by: [{ type: 'segment', id: user.id, name: 'Nest user' }] });
      await h.as().put(`/v1/segments/${user.id}`).send({ definition: EVERYONE }).expect(200);
      await h.as().delete(`/v1/segments/${base.id}`).expect(204);
    });

    it('refuses to delete a custom field a segment has a condition on (409 naming the segment), and allows it once unused', async () => {
      const field = (await h.as().post('/v1/custom-fields').send({ label: 'Score for segments', type: 'Number' }).expect(201)).body.data;
      const segment = await createSegment(
        'High scores',
        rule([{ id: 'score', field: 'custom_field', operator: 'greater_than', value: 5, customFieldId: field.id }]),
      );
      const refused = await h.as().delete(`/v1/custom-fields/${field.id}`).expect(409);
      expect(refused.body.error).toMatchObject({ code: 'custom_field_in_use', used_by: [{ type: 'segment', id: segment.id, name: 'High scores' }] });
      await h.as().get(`/v1/custom-fields/${field.id}`).expect(200);
      await h.as().put(`/v1/segments/${segment.id}`).send({ definition: EVERYONE }).expect(200);
      await h.as().delete(`/v1/custom-fields/${field.id}`).expect(204);
    });

    it('refuses to delete a tag a segment has a condition on (409 naming the segment), and allows it once unused', async () => {
      const tag = (await h.as().post('/v1/tags').send({ name: 'Segmented tag' }).expect(201)).body.data;
      const segment = await createSegment('Tagged people', rule([{ id: 'tagged', field: 'tag', operator: 'has_none_of', value: ['tag_other', tag.id] }]));
      const refused = await h.as().delete(`/v1/tags/${tag.id}`).expect(409);
      expect(refused.body.error).toMatchObject({ code: 'tag_in_use', used_by: [{ type: 'segment', id: segment.id, name: 'Tagged people' }] });
      await h.as().put(`/v1/segments/${segment.id}`).send({ definition: EVERYONE }).expect(200);
      await h.as().delete(`/v1/tags/${tag.id}`).expect(204);
    });

    it('refuses to delete a segment, tag or custom field that a draft, scheduled or running broadcast targets; sent ones do not count', async () => {
      const tag = (await h.as().post('/v1/tags').send({ name: 'Broadcast tag' }).expect(201)).body.data;
      const field = (await h.as().post('/v1/custom-fields').send({ label: 'Broadcast field', type: 'Text' }).expect(201)).body.data;
      const segment = await createSegment('Broadcast segment');
      const definition = rule([
        { id: 't', field: 'tag', operator: 'has_any_of', value: [tag.id] },
        { id: 'f', field: 'custom_field', operator: 'is_not_empty', customFieldId: field.id },
        { id: 's', field: 'segment', operator: 'is', value: segment.id },
      ]);
      const broadcast = (id: string, status: 'draft' | 'scheduled' | 'running' | 'completed') => ({
        id,
        workspace_id: h.workspaceId,
        subject: `Broadcast ${id}`,
        body_document: { type: 'doc' },
        body: '',
        status,
        audience_definition: definition,
      });
      await prisma.broadcast.createMany({ data: [broadcast('brd_old', 'completed'), broadcast('brd_live', 'scheduled')] });
      const used = [{ type: 'broadcast', id: 'brd_live', name: 'Broadcast brd_live' }];
      expect((await h.as().delete(`/v1/tags/${tag.id}`).expect(409)).body.error).toMatchObject({ code: 'tag_in_use', used_by: used });
      expect((await h.as().delete(`/v1/custom-fields/${field.id}`).expect(409)).body.error).toMatchObject({ code: 'custom_field_in_use', used_by: used });
      const refused = (await h.as().delete(`/v1/segments/${segment.id}`).expect(409)).body.error;
      expect(refused).toMatchObject({ code: 'segment_in_use', used_by: used });
      expect(refused.message).toContain('broadcast "Broadcast brd_live"');
      await prisma.broadcast.update({ where: { id: 'brd_live' }, data: { status: 'completed' } });
      await h.as().delete(`/v1/tags/${tag.id}`).expect(204);
      await h.as().delete(`/v1/custom-fields/${field.id}`).expect(204);
      await h.as().delete(`/v1/segments/${segment.id}`).expect(204);
    });

    it('refuses a definition leading back to the segment being saved or previewed', async () => {
      const a = await createSegment('Cycle A');
      const b = await createSegment('Cycle B', inSegment(a.id));
      const update = await h
        .as()
        .put(`/v1/segments/${a.id}`)
        .send({ definition: inSegment(b.id) })
        .expect(400);
      expect(update.body.error).toMatchObject({ code: 'segment_reference_cycle', condition_id: 'nested' });
      const self = await h
        .as()
        .put(`/v1/segments/${a.id}`)
        .send({ definition: inSegment(a.id) })
        .expect(400);
      expect(self.body.error.code).toBe('segment_reference_cycle');
      const preview = await h
        .as()
        .post('/v1/segments/preview')
        .send({ definition: inSegment(b.id), current_segment_id: a.id })
        .expect(400);
      expect(preview.body.error).toMatchObject({ code: 'segment_reference_cycle', condition_id: 'nested' });
      // Without current_segment_id the same definition is simply a preview of B.
      await h
        .as()
        .post('/v1/segments/preview')
        .send({ definition: inSegment(b.id) })
        .expect(200);
      expect((await h.as().get(`/v1/segments/${a.id}`).expect(200)).body.data.definition).toEqual(EVERYONE);
    });

    it('refuses nesting deeper than five levels', async () => {
      let innermost = await createSegment('Depth 1');
      for (let level = 2; level <= 5; level++) innermost = await createSegment(`Depth ${level}`, inSegment(innermost.id));
      await h
        .as()
        .post('/v1/segments/preview')
        .send({ definition: inSegment(innermost.id) })
        .expect(200);
      const tooDeep = await createSegment('Depth 6', inSegment(innermost.id)).catch(() => null);
      expect(tooDeep).not.toBeNull();
      const refused = await h
        .as()
        .post('/v1/segments')
        .send({ name: 'Depth 7', definition: inSegment(tooDeep.id) })
        .expect(400);
      expect(refused.body.error).toMatchObject({ code: 'segment_nesting_too_deep', condition_id: 'nested' });
    });
  });

  describe('bounds on nested references', () => {
    // Each of S1..S3 names the segment below six times: S0 (1 condition) expands to 12, 78 and 474 conditions through them.
    const chain = async (bottom: object, key?: string) => {
      const ids: string[] = [(await createSegment(`Fan-out 0 ${key ?? ''}`, bottom, key)).id];
      for (let level = 1; level <= 3; level++) ids.push((await createSegment(`Fan-out ${level} ${key ?? ''}`, references(ids.at(-1)!, 6), key)).id);
      return ids;
    };

    it(`refuses a definition over ${MAX_EXPANDED_CONDITIONS} expanded conditions on create, preview and broadcasts, quickly`, async () => {
      const ws = await h.newWorkspace('Fan-out');
      const [, , , s3] = await chain(plain(1), ws.api_key);
      const started = Date.now();
      const over = references(s3, 6); // 6 × 475
      const created = await h.as(ws.api_key).post('/v1/segments').send({ name: 'Fan-out 4', definition: over }).expect(400);
      expect(created.body.error).toMatchObject({ code: 'audience_definition_too_large', condition_id: expect.stringMatching(/^ref/) });
      const preview = await h.as(ws.api_key).post('/v1/segments/preview').send({ definition: over }).expect(400);
      expect(preview.body.error.code).toBe('audience_definition_too_large');
      await saveConnection(h.app, ws.workspace_id, smtpConnection('edc_fan_out', 2525));
      const broadcast = await h
        .as(ws.api_key)
        .post('/v1/broadcasts')
        .send({ subject: 'Fan-out', body_document: document(), audience_definition: over })
        .expect(400);
      expect(broadcast.body.error.code).toBe('audience_definition_too_large');
      // Twice S3 (950 conditions) is within the bound and still one statement.
      await h
        .as(ws.api_key)
        .post('/v1/segments/preview')
        .send({ definition: references(s3, 2) })
        .expect(200);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(await prisma.segment.count({ where: { workspace_id: ws.workspace_id } })).toBe(4);
    });

    it('refuses an update of a segment that would push a segment using it over the bound, naming the definition', async () => {
      const ws = await h.newWorkspace('Fan-out from below');
      const [s0, , , s3] = await chain(plain(1), ws.api_key);
      // Four conditions at the bottom: S3 would expand to 6 × (1 + 6 × (1 + 6 × (1 + 4))) = 1,122.
      const refused = await h
        .as(ws.api_key)
        .put(`/v1/segments/${s0}`)
        .send({ definition: plain(4) })
        .expect(400);
      expect(refused.body.error).toMatchObject({ code: 'audience_definition_too_large', details: { field: 'definition' } });
      expect(refused.body.error.message).toContain('Fan-out 3');
      expect((await h.as(ws.api_key).get(`/v1/segments/${s0}`).expect(200)).body.data.definition).toEqual(plain(1));
      await h
        .as(ws.api_key)
        .put(`/v1/segments/${s0}`)
        .send({ definition: plain(3) })
        .expect(200);
      expect((await h.as(ws.api_key).get(`/v1/segments/${s3}`).expect(200)).body.data.definition).toEqual(references(expect.any(String), 6));
    });

    it('refuses an update at the bottom of a five-deep chain that would make its top six deep', async () => {
      const ws = await h.newWorkspace('Deep from below');
      const chainIds: string[] = [(await createSegment('Bottom', EVERYONE, ws.api_key)).id];
      for (let level = 1; level <= 5; level++) chainIds.push((await createSegment(`Above ${level}`, inSegment(chainIds.at(-1)!), ws.api_key)).id);
      const other = await createSegment('Elsewhere', EVERYONE, ws.api_key);
      const refused = await h
        .as(ws.api_key)
        .put(`/v1/segments/${chainIds[0]}`)
        .send({ definition: inSegment(other.id) })
        .expect(400);
      expect(refused.body.error).toMatchObject({ code: 'segment_nesting_too_deep', details: { field: 'definition' } });
      expect(refused.body.error.message).toContain('Above 5');
      expect((await h.as(ws.api_key).get(`/v1/segments/${chainIds[0]}`).expect(200)).body.data.definition).toEqual(EVERYONE);
      // The top still compiles and counts; a change at the bottom that adds no level is fine.
      await h.as(ws.api_key).get(`/v1/segments/${chainIds[5]}`).expect(200);
      await h
        .as(ws.api_key)
        .put(`/v1/segments/${chainIds[0]}`)
        .send({ definition: plain(2) })
        .expect(200);
      // One level up from the bottom there is room for one more.
      await h
        .as(ws.api_key)
        .put(`/v1/segments/${other.id}`)
        .send({ definition: inSegment(chainIds[4]) })
        .expect(200);
    });
  });

  describe('stored values', () => {
    it('stores tag and segment ids trimmed, as the compiler reads them, so the delete guards find them', async () => {
      const ws = await h.newWorkspace('Padded ids');
      const as = h.as(ws.api_key);
      const tag = (await as.post('/v1/tags').send({ name: 'Padded' }).expect(201)).body.data;
      const target = await createSegment('Padded target', EVERYONE, ws.api_key);
      const padded = rule([
        { id: 't', field: 'tag', operator: 'has_any_of', value: [` ${tag.id}`] },
        { id: 's', field: 'segment', operator: 'is', value: `${target.id} ` },
        { id: 'c', field: 'country', operator: 'is', value: [' de '] },
      ]);
      const trimmed = rule([
        { id: 't', field: 'tag', operator: 'has_any_of', value: [tag.id] },
        { id: 's', field: 'segment', operator: 'is', value: target.id },
        { id: 'c', field: 'country', operator: 'is', value: ['de'] },
      ]);
      const user = await createSegment('Padded user', padded, ws.api_key);
      expect(user.definition).toEqual(trimmed);
      expect((await as.delete(`/v1/tags/${tag.id}`).expect(409)).body.error).toMatchObject({ code: 'tag_in_use', used_by: [{ id: user.id }] });
      await as.put(`/v1/segments/${user.id}`).send({ definition: EVERYONE }).expect(200);

      await saveConnection(h.app, ws.workspace_id, smtpConnection('edc_padded', 2525));
      const broadcast = (await as.post('/v1/broadcasts').send({ subject: 'Padded', body_document: document(), audience_definition: padded }).expect(201)).body
        .data;
      expect(broadcast.audience_definition).toEqual(trimmed);
      const used = [{ type: 'broadcast', id: broadcast.id, name: 'Padded' }];
      expect((await as.delete(`/v1/tags/${tag.id}`).expect(409)).body.error).toMatchObject({ code: 'tag_in_use', used_by: used });
      expect((await as.delete(`/v1/segments/${target.id}`).expect(409)).body.error).toMatchObject({ code: 'segment_in_use', used_by: used });
    });

    it('refuses to change the type of a custom field a segment or live broadcast has a condition on (409 naming them), as a delete', async () => {
      const field = (await h.as().post('/v1/custom-fields').send({ label: 'Typed for segments', type: 'Text' }).expect(201)).body.data;
      const segment = await createSegment('Typed users', rule([{ id: 'f', field: 'custom_field', operator: 'contains', value: 'x', customFieldId: field.id }]));
      const refused = await h.as().put(`/v1/custom-fields/${field.id}`).send({ type: 'Number' }).expect(409);
      expect(refused.body.error).toMatchObject({
        code: 'custom_field_in_use',
        details: { field: 'type' },
        used_by: [{ type: 'segment', id: segment.id, name: 'Typed users' }],
      });
      expect((await h.as().get(`/v1/custom-fields/${field.id}`).expect(200)).body.data.type).toBe('Text');
      // The label can still change, and the type once nothing names the field.
      await h.as().put(`/v1/custom-fields/${field.id}`).send({ label: 'Typed, renamed', type: 'Text' }).expect(200);
      await h.as().put(`/v1/segments/${segment.id}`).send({ definition: EVERYONE }).expect(200);
      await prisma.broadcast.create({
        data: {
          id: 'brd_typed',
          workspace_id: h.workspaceId,
          subject: 'Typed broadcast',
          body_document: { type: 'doc' },
          body: '',
          status: 'draft',
          audience_definition: rule([{ id: 'f', field: 'custom_field', operator: 'is_not_empty', customFieldId: field.id }]),
        },
      });
      const byBroadcast = await h.as().put(`/v1/custom-fields/${field.id}`).send({ type: 'Number' }).expect(409);
      expect(byBroadcast.body.error).toMatchObject({ code: 'custom_field_in_use', used_by: [{ type: 'broadcast', id: 'brd_typed' }] });
      await prisma.broadcast.update({ where: { id: 'brd_typed' }, data: { status: 'completed' } });
      await h.as().put(`/v1/custom-fields/${field.id}`).send({ type: 'Number' }).expect(200);
    });
  });

  describe('counting failures', () => {
    afterEach(() => jest.restoreAllMocks());
    // What PostgreSQL answers a statement with too many bind parameters: not an outage, and the same on every retry.
    const countingFails = () =>
      jest
        .spyOn(AudienceRepository.prototype, 'count')
        .mockRejectedValueOnce(Object.assign(new Error('bind message has 65601 parameter formats but 0 parameters'), { code: '08P01', severity: 'ERROR' }));

    it('answers a create or update whose counting fails with the saved segment, uncounted, and recounts it in the background', async () => {
      const ws = await h.newWorkspace('Counting fails');
      await h.as(ws.api_key).post('/v1/subscribers').send({ email: 'counted@example.com' }).expect(201);
      const send = () => h.as(ws.api_key).post('/v1/segments').set('idempotency-key', 'counting-fails-1').send({ name: 'Uncounted', definition: EVERYONE });
      countingFails();
      const created = (await send().expect(201)).body.data;
      expect(created).toMatchObject({ name: 'Uncounted', confirmed_subscriber_count: 0, total_subscriber_count: 0 });
      expect(created).not.toHaveProperty('counts_refreshed_at');
      const queue = h.app.get<Queue>(getQueueToken(EmailQueues.segmentCounts));
      const queued = async () => (await queue.getJobs(['waiting', 'delayed', 'active', 'completed'])).filter((job) => job.data.segmentId === created.id);
      expect((await waitFor(queued)).map((job) => job.data)).toEqual([{ workspaceId: ws.workspace_id, segmentId: created.id }]);
      // The retry replays the create; the segment reads, counts and can be deleted like any other.
      expect((await send().expect(201)).body.data.id).toBe(created.id);
      expect((await h.as(ws.api_key).get(`/v1/segments/${created.id}`).expect(200)).body.data).toMatchObject({ total_subscriber_count: 1 });

      countingFails();
      const updated = (
        await h
          .as(ws.api_key)
          .put(`/v1/segments/${created.id}`)
          .send({ definition: plain(1) })
          .expect(200)
      ).body.data;
      expect(updated).toMatchObject({ definition: plain(1), confirmed_subscriber_count: 0, total_subscriber_count: 0 });
      expect(updated).not.toHaveProperty('counts_refreshed_at');
      expect((await h.as(ws.api_key).get(`/v1/segments/${created.id}`).expect(200)).body.data).toMatchObject({ confirmed_subscriber_count: 1 });
      await h.as(ws.api_key).delete(`/v1/segments/${created.id}`).expect(204);
    });
  });

  describe('tenancy', () => {
    it("never shows, counts through or accepts another workspace's segment, tag or custom field", async () => {
      const mine = await createSegment('Mine only');
      const tag = (await h.as().post('/v1/tags').send({ name: 'Tenancy tag' }).expect(201)).body.data;
      await h
        .as()
        .post('/v1/subscribers')
        .send({ email: 'tagged@example.com', existing_tag_ids: [tag.id] })
        .expect(201);
      const other = await h.newWorkspace('Other tenant');
      const as = h.as(other.api_key);
      await as.get(`/v1/segments/${mine.id}`).expect(404);
      await as.put(`/v1/segments/${mine.id}`).send({ name: 'Stolen' }).expect(404);
      await as.delete(`/v1/segments/${mine.id}`).expect(404);
      expect((await as.get('/v1/segments').expect(200)).body.data).toEqual([]);
      const foreign = await as
        .post('/v1/segments')
        .send({ name: 'Foreign', definition: inSegment(mine.id) })
        .expect(400);
      expect(foreign.body.error).toMatchObject({ code: 'invalid_audience_condition', condition_id: 'nested' });
      const byTag = await as
        .post('/v1/segments/preview')
        .send({ definition: rule([{ id: 't', field: 'tag', operator: 'has_any_of', value: [tag.id] }]) })
        .expect(200);
      expect(byTag.body.data).toEqual({ confirmed_subscriber_count: 0, total_subscriber_count: 0 });
      expect((await h.as().get(`/v1/segments/${mine.id}`).expect(200)).body.data.name).toBe('Mine only');
    });
  });

  describe('counts', () => {
    it('the preview, the saved segment and the ids a send pages through agree exactly', async () => {
      const ws = await h.newWorkspace('Agreement');
      const workspaceId = trustedWorkspaceId(ws.workspace_id);
      const tags = ['vip', 'trial'].map((name) => ({ id: `tag_${ws.workspace_id}_${name}`, workspace_id: workspaceId, name, name_key: name }));
      await prisma.tag.createMany({ data: tags });
      const countries = ['DE', 'FR', 'US', 'JP', null];
      const statuses = ['Active', 'Active', 'Unsubscribed', 'Bounced'] as const;
      const subscribers = Array.from({ length: 600 }, (_, i) => ({
        id: `sub_${ws.workspace_id}_${String(i).padStart(4, '0')}`,
        workspace_id: workspaceId,
        email: `agree${i}@example.com`,
        status: statuses[i % statuses.length],
        country: countries[(i * 7) % countries.length],
      }));
      await prisma.subscriber.createMany({ data: subscribers });
      await prisma.subscriberTag.createMany({
        data: subscribers.filter((_, i) => i % 3 === 0).map((s) => ({ workspace_id: workspaceId, subscriber_id: s.id, tag_id: tags[0].id })),
      });
      await prisma.subscriberEngagement.createMany({
        data: subscribers
          .filter((_, i) => i % 5 < 2)
          .map((s, i) => ({
            workspace_id: workspaceId,
            subscriber_id: s.id,
            last_opened_at: new Date(Date.now() - (i % 60) * 86_400_000),
            windows_as_of: new Date(),
          })),
      });
      const definition = {
        match: 'any',
        groups: [
          {
            id: 'europe-vip',
            match: 'all',
            conditions: [
              { id: 'vip', field: 'tag', operator: 'has_any_of', value: [tags[0].id] },
              { id: 'eu', field: 'country', operator: 'in_region', value: 'EU' },
            ],
          },
          { id: 'recent', match: 'all', conditions: [{ id: 'opened', field: 'email_opened', operator: 'in_last_days', value: 30 }] },
        ],
      };
      const preview = (await h.as(ws.api_key).post('/v1/segments/preview').send({ definition }).expect(200)).body.data;
      const saved = await createSegment('Agreement', definition, ws.api_key);
      const nested = await createSegment('Agreement, nested', inSegment(saved.id), ws.api_key);

      const audience = h.app.get(AudienceRepository);
      const compiled = await audience.compile(workspaceId, definition as AudienceDefinition);
      const ids: string[] = [];
      for (let page = await audience.page(compiled, null, 50); page.length; page = await audience.page(compiled, ids.at(-1)!, 50)) ids.push(...page);
      const active = await prisma.subscriber.count({ where: { id: { in: ids }, status: 'Active' } });

      expect(ids.length).toBeGreaterThan(50);
      expect(ids.length).toBeLessThan(subscribers.length);
      const counts = { confirmed_subscriber_count: active, total_subscriber_count: ids.length };
      expect(preview).toEqual(counts);
      expect(saved).toMatchObject(counts);
      expect(nested).toMatchObject(counts);
      expect((await h.as(ws.api_key).get(`/v1/segments/${saved.id}`).expect(200)).body.data).toMatchObject(counts);
    });

    it('lists cached counts, and queues one background recount per stale segment', async () => {
      const ws = await h.newWorkspace('Cache');
      const segment = await createSegment('Cached', EVERYONE, ws.api_key);
      await h.as(ws.api_key).post('/v1/subscribers').send({ email: 'later@example.com' }).expect(201);
      const listed = async () => (await h.as(ws.api_key).get('/v1/segments').expect(200)).body.data[0];
      // Fresh cache: the list shows the counts taken at create time, and asks for nothing.
      expect(await listed()).toMatchObject({ id: segment.id, total_subscriber_count: 0 });
      const queue = h.app.get<Queue>(getQueueToken(EmailQueues.segmentCounts));
      const queued = async () => (await queue.getJobs(['waiting', 'delayed', 'active', 'completed'])).filter((job) => job.data.segmentId === segment.id);
      expect(await queued()).toEqual([]);

      await prisma.segment.update({ where: { id: segment.id }, data: { counts_refreshed_at: new Date(Date.now() - 3_600_000) } });
      await listed();
      await listed();
      const jobs = await waitFor(queued);
      expect(jobs.map((job) => job.data)).toEqual([{ workspaceId: ws.workspace_id, segmentId: segment.id }]);
      // The GET counts afresh and refreshes the cache the list reads.
      expect((await h.as(ws.api_key).get(`/v1/segments/${segment.id}`).expect(200)).body.data.total_subscriber_count).toBe(1);
      expect(await listed()).toMatchObject({ total_subscriber_count: 1 });
    });
  });
});

/** Polls until `read` returns a non-empty list (the queueing is not awaited by the request). */
async function waitFor<T>(read: () => Promise<T[]>, attempts = 50): Promise<T[]> {
  for (let i = 0; i < attempts; i++) {
    const found = await read();
    if (found.length) return found;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return read();
}
