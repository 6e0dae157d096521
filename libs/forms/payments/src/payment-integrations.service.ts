import { Inject, Injectable } from '@nestjs/common';
import { z } from 'zod';
import { FormsErrors } from '@forms/contracts';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { Clock, WorkspaceId } from '@shared/core';
import { SecretBox } from '@shared/secrets';
import { IntegrationRow, PaymentsRepository } from './payments.repository';
import { createPaymentProvider } from './providers/create-provider';
import type { PaymentProvider, PaymentProviderName, ProviderCredentials } from './providers/payment-provider';

interface SealedSecrets {
  secret_key: string;
  webhook_secret: string | null;
}

const secret = z.string().trim().min(8).max(255);
/** What each provider's PUT takes; the secrets may be left out of an update to keep the stored ones. */
const BODIES = {
  razorpay: z.strictObject({
    key_id: z.string().regex(/^rzp_(test|live)_[A-Za-z0-9]{6,40}$/, 'a Razorpay key id (rzp_test_… or rzp_live_…)'),
    key_secret: secret.optional(),
    webhook_secret: secret.optional(),
  }),
  stripe: z.strictObject({
    publishable_key: z.string().regex(/^pk_(test|live)_[A-Za-z0-9]{6,255}$/, 'a Stripe publishable key (pk_test_… or pk_live_…)'),
    secret_key: z
      .string()
      .regex(/^(sk|rk)_(test|live)_[A-Za-z0-9]{6,255}$/, 'a Stripe secret or restricted key (sk_… or rk_…)')
      .optional(),
    webhook_secret: z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/=]{6,255}$/, 'a Stripe webhook signing secret (whsec_…)')
      .optional(),
  }),
};

const PUBLIC_KEY_NAME = { razorpay: 'key_id', stripe: 'publishable_key' } as const;
const SECRET_KEY_NAME = { razorpay: 'key_secret', stripe: 'secret_key' } as const;

/** The integration as the API shows it: public fields and `has_*` flags, never a secret. */
export interface IntegrationView {
  provider: PaymentProviderName;
  key_id?: string;
  publishable_key?: string;
  has_key_secret?: boolean;
  has_secret_key?: boolean;
  has_webhook_secret: boolean;
  /** Where to point the provider's webhook (it names the workspace, whose webhook secret checks the signature). */
  webhook_url: string;
  created_at: string;
  updated_at: string;
}

export interface ConnectedProvider {
  client: PaymentProvider;
  publicKey: string;
  hasWebhookSecret: boolean;
}

const sealContext = (workspaceId: string, provider: PaymentProviderName) => `payment_integration:${workspaceId}:${provider}:secrets`;

/** Workspace payment-provider connections: secrets sealed with SecretBox, entered once, never shown again. */
@Injectable()
export class PaymentIntegrations {
  constructor(
    private readonly repository: PaymentsRepository,
    private readonly box: SecretBox,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async put(workspaceId: WorkspaceId, provider: PaymentProviderName, body: unknown): Promise<IntegrationView> {
    const parsed = BODIES[provider].safeParse(body ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue.path.join('.') || (issue.code === 'unrecognized_keys' ? issue.keys[0] : 'body');
      throw FormsErrors.invalid('validation_failed', `${field}: ${issue.message}`, field);
    }
    const input = parsed.data as Record<string, string | undefined>;
    const existing = await this.repository.integration(workspaceId, provider);
    const stored = existing ? this.open(existing) : null;
    const secretKey = input[SECRET_KEY_NAME[provider]] ?? stored?.secret_key;
    if (!secretKey) {
      const field = SECRET_KEY_NAME[provider];
      throw FormsErrors.invalid('validation_failed', `${field}: required when connecting ${provider} for the first time.`, field);
    }
    const secrets: SealedSecrets = { secret_key: secretKey, webhook_secret: input.webhook_secret ?? stored?.webhook_secret ?? null };
    const row = await this.repository.saveIntegration(workspaceId, provider, {
      publicKey: input[PUBLIC_KEY_NAME[provider]] as string,
      secrets: this.box.seal(JSON.stringify(secrets), sealContext(workspaceId, provider)),
      hasWebhookSecret: secrets.webhook_secret !== null,
      at: this.clock.now(),
    });
    return this.view(row);
  }

  async get(workspaceId: WorkspaceId, provider: PaymentProviderName): Promise<IntegrationView> {
    return this.view(await this.required(workspaceId, provider));
  }

  async delete(workspaceId: WorkspaceId, provider: PaymentProviderName): Promise<{ ok: true; provider: PaymentProviderName }> {
    if (!(await this.repository.deleteIntegration(workspaceId, provider))) throw notConnected(provider, workspaceId);
    return { ok: true, provider };
  }

  /** The workspace's provider client with its opened credentials, or null when it is not connected. */
  async provider(workspaceId: WorkspaceId, provider: PaymentProviderName): Promise<ConnectedProvider | null> {
    const row = await this.repository.integration(workspaceId, provider);
    if (!row) return null;
    const secrets = this.open(row);
    const credentials: ProviderCredentials = { publicKey: row.public_key, secretKey: secrets.secret_key, webhookSecret: secrets.webhook_secret };
    return {
      client: await createPaymentProvider(provider, credentials, this.config.payments, this.config.allowNonLoopbackHosts),
      publicKey: row.public_key,
      hasWebhookSecret: secrets.webhook_secret !== null,
    };
  }

  private async required(workspaceId: WorkspaceId, provider: PaymentProviderName): Promise<IntegrationRow> {
    const row = await this.repository.integration(workspaceId, provider);
    if (!row) throw notConnected(provider, workspaceId);
    return row;
  }

  private open(row: IntegrationRow): SealedSecrets {
    return JSON.parse(this.box.open(row.secrets, sealContext(row.workspace_id, row.provider))) as SealedSecrets;
  }

  private view(row: IntegrationRow): IntegrationView {
    const publicField = PUBLIC_KEY_NAME[row.provider];
    return {
      provider: row.provider,
      [publicField]: row.public_key,
      [`has_${SECRET_KEY_NAME[row.provider]}`]: true,
      has_webhook_secret: row.has_webhook_secret,
      webhook_url: `${this.config.formsPublicBaseUrl}/api/payments/${row.provider}/webhook?workspace_id=${encodeURIComponent(row.workspace_id)}`,
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
    };
  }
}

const notConnected = (provider: PaymentProviderName, workspaceId: string) =>
  FormsErrors.fail('payment_integration_not_found', `The workspace has not connected ${provider}.`, {
    details: { resource: { type: 'payment_integration', id: `${workspaceId}:${provider}` } },
  });
