/**
 * The forms-worker's repeatable OAuth purge: expired authorization codes and browser sessions go, and so do tokens
 * past expiry or revoked more than a day ago; live ones, a rotated refresh token that has not expired and a recently
 * revoked token stay. Real PostgreSQL, Redis and BullMQ.
 */
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { FormsPrisma } from '@forms/data-access';
import { FormsQueues } from '@forms/contracts';
import { afterStartupRun, oauthPurgeCases } from '@shared/testing';
import { settled, useFormsWorker } from './worker.fixture';

describe('forms-worker: purging OAuth codes, tokens and browser sessions', () => {
  const fixture = useFormsWorker();

  it('is a repeatable job that deletes expired codes and sessions and expired or long-revoked tokens, of every owner', async () => {
    const prisma = fixture.worker().app.get(FormsPrisma);
    const queue = fixture.worker().app.get<Queue>(getQueueToken(FormsQueues.formsOAuthPurge));
    expect((await queue.getJobSchedulers()).map((scheduler) => scheduler.key)).toContain('purge-oauth-records');
    await afterStartupRun(queue);

    const cases = oauthPurgeCases(Date.now());
    await prisma.owner.create({ data: { id: 'own_purge', email: 'p@example.test', username: 'purge' } });
    await prisma.oAuthClient.create({ data: { id: 'oac_purge', name: 'App', redirect_uris: ['https://app.example/cb'], scopes: ['forms:read'] } });
    await prisma.mcpConnection.create({ data: { id: 'mcn_purge', owner_id: 'own_purge', kind: 'oauth', client_id: 'oac_purge', scopes: ['forms:read'] } });
    const grant = { connection_id: 'mcn_purge', client_id: 'oac_purge', owner_id: 'own_purge', scopes: ['forms:read'] };
    await prisma.oAuthAuthorizationCode.createMany({
      data: cases.codes.map((code) => ({ ...code, ...grant, redirect_uri: 'https://app.example/cb', code_challenge: 'c', family_id: 'oaf_purge' })),
    });
    await prisma.oAuthToken.createMany({ data: cases.tokens.map((token) => ({ ...token, ...grant, family_id: 'oaf_purge', token_preview: 'x' })) });
    await prisma.browserSession.createMany({ data: cases.sessions.map((session) => ({ ...session, owner_id: 'own_purge' })) });

    const job = await queue.add('purge-oauth-records', {});
    expect(await settled(job)).toBe('completed');
    expect((await queue.getJob(job.id!))?.returnvalue).toEqual(cases.removed);

    const ids = async (rows: Promise<Array<{ id: string }>>) => (await rows).map((row) => row.id).sort();
    expect((await prisma.oAuthAuthorizationCode.findMany({ select: { code_hash: true } })).map((row) => row.code_hash)).toEqual(cases.kept.codes);
    expect(await ids(prisma.oAuthToken.findMany({ select: { id: true } }))).toEqual(cases.kept.tokens);
    expect(await ids(prisma.browserSession.findMany({ select: { id: true } }))).toEqual(cases.kept.sessions);
  });
});
