/**
 * The email-jobs-worker's repeatable OAuth purge: expired authorization codes and browser sessions go, and so do
 * tokens past expiry or revoked more than a day ago; live ones, a rotated refresh token that has not expired and a
 * recently revoked token stay. Real PostgreSQL, Redis and BullMQ.
 */
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { EmailQueues } from '@email/contracts';
import { afterStartupRun, oauthPurgeCases } from '@shared/testing';
import { settled, useJobsWorker } from './worker.fixture';

describe('email-jobs-worker: purging OAuth codes, tokens and browser sessions', () => {
  const jobs = useJobsWorker();

  it('is a repeatable job that deletes expired codes and sessions and expired or long-revoked tokens, in every workspace', async () => {
    const prisma = jobs.prisma();
    const queue = jobs.worker().app.get<Queue>(getQueueToken(EmailQueues.oauthPurge));
    expect((await queue.getJobSchedulers()).map((scheduler) => scheduler.key)).toContain('purge-oauth-records');
    await afterStartupRun(queue);

    const cases = oauthPurgeCases(Date.now());
    await prisma.workspace.create({ data: { id: 'wsp_purge', name: 'Purge' } });
    await prisma.user.create({ data: { id: 'usr_purge', email: 'p@example.test', name: 'P', password_hash: 'x' } });
    await prisma.oAuthClient.create({ data: { id: 'oac_purge', name: 'App', redirect_uris: ['https://app.example/cb'], scopes: ['tags:read'] } });
    await prisma.mcpConnection.create({
      data: { id: 'mcn_purge', workspace_id: 'wsp_purge', kind: 'oauth', client_id: 'oac_purge', scopes: ['tags:read'] },
    });
    const grant = { connection_id: 'mcn_purge', client_id: 'oac_purge', user_id: 'usr_purge', workspace_id: 'wsp_purge', scopes: ['tags:read'] };
    await prisma.oAuthAuthorizationCode.createMany({
      data: cases.codes.map((code) => ({ ...code, ...grant, redirect_uri: 'https://app.example/cb', code_challenge: 'c', family_id: 'oaf_purge' })),
    });
    await prisma.oAuthToken.createMany({ data: cases.tokens.map((token) => ({ ...token, ...grant, family_id: 'oaf_purge', token_preview: 'x' })) });
    await prisma.browserSession.createMany({ data: cases.sessions.map((session) => ({ ...session, user_id: 'usr_purge' })) });

    const job = await queue.add('purge-oauth-records', {});
    expect(await settled(job)).toBe('completed');
    expect((await queue.getJob(job.id!))?.returnvalue).toEqual(cases.removed);

    const ids = async (rows: Promise<Array<{ id: string }>>) => (await rows).map((row) => row.id).sort();
    expect((await prisma.oAuthAuthorizationCode.findMany({ select: { code_hash: true } })).map((row) => row.code_hash)).toEqual(cases.kept.codes);
    expect(await ids(prisma.oAuthToken.findMany({ select: { id: true } }))).toEqual(cases.kept.tokens);
    expect(await ids(prisma.browserSession.findMany({ select: { id: true } }))).toEqual(cases.kept.sessions);
  });
});
