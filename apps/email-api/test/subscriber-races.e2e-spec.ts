import { EmailPrisma } from '@email/data-access';
import { emailApi, EmailApiHarness } from './helpers';

/**
 * Concurrency on the subscriber upsert: many writers creating the same new tags at once. Each round
 * uses fresh tag names, so every request races to create them; the outcome must be exact every time.
 */
describe('email-api: concurrent subscriber upserts', () => {
  let h: EmailApiHarness;
  let prisma: EmailPrisma;

  beforeAll(async () => {
    h = await emailApi({ RATE_LIMIT_REQUESTS: '100000' });
    prisma = h.app.get(EmailPrisma);
  });
  afterAll(() => h?.close());

  const PARALLEL = 50;
  const ROUNDS = 4;

  async function race(round: string, order: (names: string[], i: number) => string[]) {
    const names = ['Alpha', 'Beta', 'Gamma'].map((n) => `${round} ${n}`);
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        h
          .as()
          .post('/v1/subscribers')
          .send({ email: `${round.toLowerCase()}-${i}@example.com`, new_tags: order(names, i) }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    const missingTags = answers.filter((a) => a.status === 201 && a.body.data.tags.length !== names.length).length;
    const tags = await prisma.tag.findMany({
      where: { workspace_id: h.workspaceId, name: { in: names } },
      include: { _count: { select: { subscribers: true } }, count_shards: true },
    });
    return {
      statuses: [...new Set(statuses)],
      missingTags,
      tags: tags
        // The exact count: the tag row's base plus its count shards.
        .map((t) => ({
          name: t.name,
          memberships: t._count.subscribers,
          subscriber_count: t.count_shards.reduce((sum, s) => sum + s.delta, t.subscriber_count),
        }))
        .sort((a, b) => a.name.localeCompare(b.name)),
      expectedTags: names.map((name) => ({ name, memberships: PARALLEL, subscriber_count: PARALLEL })),
    };
  }

  const orders: Array<[string, (names: string[], i: number) => string[]]> = [
    ['the same order', (names) => names],
    ['alternating order', (names, i) => (i % 2 ? [...names].reverse() : names)],
  ];

  for (const [label, order] of orders) {
    it(`${PARALLEL} parallel creates naming the same new tags in ${label} all get every tag, with exact counters and no 5xx`, async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const result = await race(`${label.split(' ')[0]}${round}`, order);
        expect({ round, statuses: result.statuses, missingTags: result.missingTags, tags: result.tags }).toEqual({
          round,
          statuses: [201],
          missingTags: 0,
          tags: result.expectedTags,
        });
      }
    }, 30_000);
  }
});
