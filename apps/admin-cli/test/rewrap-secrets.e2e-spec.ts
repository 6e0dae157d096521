import { ConnectionSecrets } from '@email/delivery';
import { EmailPrisma } from '@email/data-access';
import { SubscriptionSecrets } from '@email/webhooks';
import { SecretBox } from '@shared/secrets';
import { AdminCli, startAdminCli } from './admin-cli.fixture';

const OLD_KEY = 'o'.repeat(40);
const NEW_KEY = 'n'.repeat(40);
const LOST_KEY = 'l'.repeat(40);

/** `rewrap-secrets` after a key rotation: secrets sealed under the retired key move to the new one, readable as before. */
describe('admin-cli: rewrap-secrets', () => {
  let cli: AdminCli;
  const sealedWith = (key: string, id: string, secrets: Record<string, string>) => new ConnectionSecrets(new SecretBox(key)).seal(id, secrets);
  const connection = (id: string, secrets: string) => ({
    id,
    workspace_id: 'wsp_rotate',
    name: id,
    provider: 'resend',
    from_email: 'a@postline.test',
    from_name: 'A',
    secrets,
  });

  beforeAll(async () => {
    cli = await startAdminCli({ ENCRYPTION_KEY: NEW_KEY, ENCRYPTION_KEYS_RETIRED: OLD_KEY });
    const prisma = cli.app.get(EmailPrisma);
    await prisma.workspace.create({ data: { id: 'wsp_rotate', name: 'Rotate' } });
    await prisma.deliveryConnection.createMany({
      data: [
        connection('edc_old', sealedWith(OLD_KEY, 'edc_old', { api_key: 're_old_secret' })),
        connection('edc_new', sealedWith(NEW_KEY, 'edc_new', { api_key: 're_new_secret' })),
        connection('edc_lost', sealedWith(LOST_KEY, 'edc_lost', { api_key: 're_lost_secret' })),
      ],
    });
    const subscription = (id: string, key: string) => ({
      id,
      workspace_id: 'wsp_rotate',
      name: id,
      url: 'https://hooks.postline.test/',
      event_patterns: ['*'],
      signing_secret: new SubscriptionSecrets(new SecretBox(key)).seal(id, `whsec_${id}`),
      signing_secret_preview: 'whsec_…',
    });
    await prisma.webhookSubscription.createMany({ data: [subscription('wsb_old', OLD_KEY), subscription('wsb_lost', LOST_KEY)] });
  });
  afterAll(async () => {
    delete process.env.ENCRYPTION_KEY;
    delete process.env.ENCRYPTION_KEYS_RETIRED;
    await cli?.close();
  });

  it('moves secrets to the active key, reports the unreadable ones, and changes nothing on a second run', async () => {
    expect(await cli.run('rewrap-secrets', [])).toEqual({ examined: 5, rewrapped: 2, unreadable: ['edc_lost', 'wsb_lost'] });
    const stored = await cli.app.get(EmailPrisma).deliveryConnection.findUniqueOrThrow({ where: { id: 'edc_old' } });
    // Only the new key is needed now.
    expect(new ConnectionSecrets(new SecretBox(NEW_KEY)).open('edc_old', stored.secrets)).toEqual({ api_key: 're_old_secret' });
    const hook = await cli.app.get(EmailPrisma).webhookSubscription.findUniqueOrThrow({ where: { id: 'wsb_old' } });
    expect(new SubscriptionSecrets(new SecretBox(NEW_KEY)).open('wsb_old', hook.signing_secret)).toBe('whsec_wsb_old');
    expect(await cli.run('rewrap-secrets', [])).toEqual({ examined: 5, rewrapped: 0, unreadable: ['edc_lost', 'wsb_lost'] });
  });
});
