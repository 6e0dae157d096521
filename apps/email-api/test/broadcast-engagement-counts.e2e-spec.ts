/**
 * A broadcast's engagement counts from end to end: sent by the real send worker (in this process, on the API's database
 * and queues) to an SMTP sink, then the message's own open pixel, click link and one-click unsubscribe; the broadcast's
 * GET and the list count distinct subscribers per kind, machine opens left out.
 */
import request from 'supertest';
import { RunningWorker, startWorker } from '@shared/bootstrap';
import { SmtpSink, uniqueQueuePrefix } from '@shared/testing';
import { QUEUES, WorkerModule } from '../../email-send-worker/src/worker.module';
import { FAST_PIPELINE } from '../../email-send-worker/test/send-worker.fixture';
import { document, saveConnection, SINK_PASSWORD, SINK_USER, smtpConnection } from './broadcasts-fixtures';
import { emailApi, EmailApiHarness } from './helpers';

const HUMAN_UA = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15';
/** Apple Mail Privacy Protection's fetch: a machine open. */
const APPLE_PROXY_UA = 'Mozilla/5.0';
const BASE = 'https://mail.postline.test';

/** The message's text with quoted-printable soft breaks and escapes undone (good enough for URLs). */
const decoded = (raw: string) =>
  raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/&amp;/g, '&');

describe('email-api: a sent broadcast counts its opens, clicks and unsubscribes', () => {
  const sink = new SmtpSink({ user: SINK_USER, pass: SINK_PASSWORD });
  const prefix = uniqueQueuePrefix();
  let h: EmailApiHarness;
  let worker: RunningWorker;

  beforeAll(async () => {
    await sink.start();
    h = await emailApi({ PUBLIC_BASE_URL: BASE, QUEUE_PREFIX: prefix });
    Object.assign(process.env, { EMAIL_DATABASE_URL: h.db.url, QUEUE_PREFIX: prefix, HEALTH_PORT: '0', ...FAST_PIPELINE });
    worker = await startWorker(WorkerModule, { service: 'email-send-worker-test', defaultHealthPort: 0, queues: QUEUES });
    await saveConnection(h.app, h.workspaceId, smtpConnection('edc_sink', sink.port));
  }, 60_000);

  afterAll(async () => {
    await worker?.stop();
    await h?.close();
    await sink.stop();
  });

  const server = () => h.app.getHttpServer();
  /** The path of the first `<BASE>/<kind>/…` URL in the text. */
  const pathIn = (text: string, kind: 'o' | 'c' | 'u') => {
    const found = new RegExp(`${BASE.replace(/\./g, '\\.')}(/${kind}/[^"'<>()\\s]+)`).exec(text);
    if (!found) throw new Error(`no /${kind}/ link in the message`);
    return found[1];
  };

  it('counts each subscriber once per kind, human opens only, in the GET and the list', async () => {
    const subscribe = async (email: string) => (await h.as().post('/v1/subscribers').send({ email }).expect(201)).body.data.id as string;
    await subscribe('ana@example.com');
    await subscribe('ben@example.com');
    await subscribe('cem@example.com');
    const created = (await h.as().post('/v1/broadcasts').send({ subject: 'Spring news', body_document: document(), connection_id: 'edc_sink' }).expect(201))
      .body.data;
    await h.as().post(`/v1/broadcasts/${created.id}/send`).expect(202);

    const deadline = Date.now() + 30_000;
    let broadcast = created;
    while (broadcast.status !== 'completed') {
      if (Date.now() > deadline) throw new Error(`broadcast still ${broadcast.status}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      broadcast = (await h.as().get(`/v1/broadcasts/${created.id}`).expect(200)).body.data;
    }
    const counts = (record: Record<string, unknown>) => ({
      opened: record.opened_count,
      clicked: record.clicked_count,
      unsubscribed: record.unsubscribed_count,
      bounced: record.bounced_count,
      complained: record.complained_count,
    });
    expect(counts(broadcast)).toEqual({ opened: 0, clicked: 0, unsubscribed: 0, bounced: 0, complained: 0 });
    expect(broadcast.recipient_count).toBe(3);

    const mailTo = (email: string) => decoded(sink.received.find((mail) => mail.to.includes(email))!.raw);
    const ana = mailTo('ana@example.com');
    const ben = mailTo('ben@example.com');
    // Ana opens twice and clicks twice: one opener, one clicker.
    for (let i = 0; i < 2; i++) {
      await request(server()).get(pathIn(ana, 'o')).set('user-agent', HUMAN_UA).expect(200);
      await request(server()).get(pathIn(ana, 'c')).set('user-agent', HUMAN_UA).expect(302);
    }
    // Ben's mail is fetched by Apple's privacy proxy (not a person), then he unsubscribes with one click.
    await request(server()).get(pathIn(ben, 'o')).set('user-agent', APPLE_PROXY_UA).expect(200);
    await request(server()).post(pathIn(ben, 'u')).set('content-type', 'application/x-www-form-urlencoded').send('List-Unsubscribe=One-Click').expect(200);

    const expected = { opened: 1, clicked: 1, unsubscribed: 1, bounced: 0, complained: 0 };
    expect(counts((await h.as().get(`/v1/broadcasts/${created.id}`).expect(200)).body.data)).toEqual(expected);
    const listed = (await h.as().get('/v1/broadcasts').expect(200)).body.data.find((row: { id: string }) => row.id === created.id);
    expect(counts(listed)).toEqual(expected);
  });
});
