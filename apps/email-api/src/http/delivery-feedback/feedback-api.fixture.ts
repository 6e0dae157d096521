import { Writable } from 'node:stream';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import request from 'supertest';
import { AccessService } from '@email/access';
import { EmailPrisma } from '@email/data-access';
import { FEEDBACK_CONNECTIONS, FeedbackConnection, SNS_OPTIONS } from '@email/delivery';
import { trustedWorkspaceId } from '@shared/core';
import { createTestApp, createTestDatabase } from '@shared/testing';
import { AppModule, EMAIL_HTTP_OPTIONS } from '../../app.module';
import type { Credentials, SignedRequest } from './feedback-signing.fixture';

export interface Posted {
  status: number;
  text: string;
  headers: Record<string, string>;
  body: { data?: Record<string, number>; error?: { type: string; code: string } };
}

/**
 * email-api on a fresh database with the delivery connections lookup replaced by an in-memory one (the connections a
 * test registers) and SNS URLs on loopback trusted; every log line and response body is kept for the secrets check.
 */
export async function feedbackApi() {
  const db = await createTestDatabase('email');
  const connections = new Map<string, FeedbackConnection>();
  const logs: string[] = [];
  const responses: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(chunk.toString('utf8'));
      done();
    },
  });
  const app: NestFastifyApplication = await createTestApp(
    AppModule,
    { EMAIL_DATABASE_URL: db.url, LOG_LEVEL: 'debug', AUTH_CACHE_TTL_MS: '0' },
    { ...EMAIL_HTTP_OPTIONS, logStream },
    (builder) =>
      builder
        .overrideProvider(FEEDBACK_CONNECTIONS)
        .useValue({ find: (id: string) => Promise.resolve(connections.get(id) ?? null) })
        .overrideProvider(SNS_OPTIONS)
        .useValue({ allowLoopbackUrls: true }),
  );
  const access = app.get(AccessService);
  const prisma = app.get(EmailPrisma);
  let connectionCount = 0;

  return {
    app,
    prisma,
    logs,
    responses,
    async workspace(name: string) {
      const { workspace_id, api_key } = await access.createWorkspace(name);
      return { id: workspace_id, key: api_key };
    },
    /** Registers a delivery connection the lookup finds; returns its id. */
    connect(workspaceId: string, provider: string, credentials: Credentials): string {
      const id = `dc_test${String(++connectionCount).padStart(4, '0')}`;
      connections.set(id, {
        workspaceId: trustedWorkspaceId(workspaceId),
        provider,
        feedbackToken: credentials.feedbackToken,
        webhookSigningKey: credentials.webhookSigningKey,
      });
      return id;
    },
    async subscriber(key: string, email: string, status?: string): Promise<string> {
      const created = await request(app.getHttpServer()).post('/v1/subscribers').set('authorization', `Bearer ${key}`).send({ email }).expect(201);
      const id = (created.body as { data: { id: string } }).data.id;
      if (status) await prisma.subscriber.update({ where: { id }, data: { status: status as never } });
      return id;
    },
    async post(connectionId: string, signed: SignedRequest): Promise<Posted> {
      const res = await request(app.getHttpServer())
        .post(`/v1/delivery-feedback/${connectionId}`)
        .set({ 'content-type': signed.contentType, ...signed.headers })
        .send(signed.body);
      responses.push(res.text, JSON.stringify(res.headers));
      return { status: res.status, text: res.text, headers: res.headers, body: res.body as Posted['body'] };
    },
    /** What feedback left behind for one subscriber: status, engagement events, status-change outbox events. */
    async trace(subscriberId: string) {
      const subscriber = await prisma.subscriber.findUniqueOrThrow({ where: { id: subscriberId } });
      const events = await prisma.emailEvent.findMany({ where: { subscriber_id: subscriberId }, orderBy: { occurred_at: 'asc' } });
      const outbox = (await prisma.outboxEvent.findMany({ where: { type: 'subscriber.status_changed' }, orderBy: { created_at: 'asc' } })).filter(
        (row) => (row.payload as { subscriber?: { id?: string } }).subscriber?.id === subscriberId,
      );
      return {
        status: subscriber.status,
        events: events.map((event) => ({ workspace_id: event.workspace_id, type: event.type })),
        outbox: outbox.map((row) => ({ workspace_id: row.workspace_id, payload: row.payload })),
      };
    },
    async close() {
      await app.close();
      await db.drop();
    },
  };
}

export type FeedbackApi = Awaited<ReturnType<typeof feedbackApi>>;
