/**
 * forms-worker runs the forms webhook pipeline: an outbox event of its database reaches the workspace's active
 * endpoints, signed so the reference standardwebhooks package verifies it. Real PostgreSQL and a loopback receiver.
 */
import { Webhook } from 'standardwebhooks';
import { FormsPrisma } from '@forms/data-access';
import { EndpointSecrets } from '@forms/webhooks';
import { WebhookReceiver } from '@shared/testing';
import { newSigningSecret } from '@shared/webhooks';
import { useFormsWorker } from './worker.fixture';

describe('forms-worker: webhook delivery', () => {
  const fixture = useFormsWorker({ WEBHOOKS_ALLOW_LOOPBACK: 'true', WEBHOOKS_POLL_INTERVAL_MS: '20', WEBHOOKS_RETRY_UNIT_MS: '20' });
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
  });
  afterAll(() => receiver?.stop());

  it('delivers each outbox event to the active endpoints of its workspace, signed', async () => {
    const app = fixture.worker().app;
    const prisma = app.get(FormsPrisma);
    const secrets = app.get(EndpointSecrets);
    await prisma.workspace.createMany({
      data: [
        { id: 'wrk_1', name: 'One' },
        { id: 'wrk_2', name: 'Two' },
      ],
    });
    const secret = newSigningSecret();
    const endpoint = (id: string, workspace: string, status = 'active') => ({
      id,
      workspace_id: workspace,
      url: receiver.url(`/${id}`),
      status,
      event_patterns: ['form.submission.created'],
      signing_secret: secrets.seal(id, secret),
      signing_secret_preview: 'whsec_…',
    });
    await prisma.webhookEndpoint.createMany({ data: [endpoint('whe_on', 'wrk_1'), endpoint('whe_off', 'wrk_1', 'disabled'), endpoint('whe_other', 'wrk_2')] });
    await prisma.outboxEvent.create({
      data: { id: 'evt_1', workspace_id: 'wrk_1', type: 'form.submission.created', payload: { submission: { id: 'sbm_1' } } },
    });

    for (let i = 0; i < 400 && !receiver.received.length; i++) await new Promise((resolve) => setTimeout(resolve, 25));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.received.map((r) => r.path)).toEqual(['/whe_on']);
    const [arrived] = receiver.received;
    const headers = Object.fromEntries(['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => [name, String(arrived.headers[name])]));
    expect(new Webhook(secret).verify(arrived.body, headers)).toMatchObject({ id: 'evt_1', workspace_id: 'wrk_1', data: { submission: { id: 'sbm_1' } } });
    expect(headers['webhook-id']).toBe('msg_1on');
  });
});
