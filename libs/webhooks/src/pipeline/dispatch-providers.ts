import { Injectable, OnApplicationBootstrap, OnModuleDestroy, Provider, Type } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { secretBoxProvider } from '@shared/secrets';
import { destinationRules } from '../destination';
import { SigningSecrets } from './signing-secrets';
import { WEBHOOK_CLIENT_OPTIONS, WebhookClientOptions, WebhookDispatcher } from './webhook-dispatcher';
import { WebhookStore } from './webhook-store';

/**
 * A service's webhook pipeline as providers: its store and sealed secrets, and `WebhookDispatcher` over them with the
 * configured settings. `WEBHOOK_CLIENT_OPTIONS` is empty (tests override it with a resolver or a certificate authority).
 */
export function webhookDispatchProviders(store: Type<WebhookStore>, secrets: Type<SigningSecrets>): Provider[] {
  return [
    store,
    secrets,
    secretBoxProvider,
    { provide: WEBHOOK_CLIENT_OPTIONS, useValue: {} },
    {
      provide: WebhookDispatcher,
      inject: [store, secrets, APP_CONFIG, WEBHOOK_CLIENT_OPTIONS],
      useFactory: (rows: WebhookStore, sealed: SigningSecrets, config: AppConfig, options: WebhookClientOptions) =>
        new WebhookDispatcher(rows, sealed, config.webhooks, destinationRules(config), options),
    },
  ];
}

/** Starts the dispatcher with the worker and stops it first on shutdown, before the database pool closes (the worker's root module provides it). */
@Injectable()
export class WebhookDispatchLifecycle implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(private readonly dispatcher: WebhookDispatcher) {}

  onApplicationBootstrap(): void {
    this.dispatcher.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.dispatcher.stop();
  }
}
