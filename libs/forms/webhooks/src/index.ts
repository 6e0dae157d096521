export * from './submission-event';
export * from './endpoints/webhook-endpoint.dto';
export * from './endpoints/webhook-endpoint.service';
export * from './webhook-endpoints.module';
export * from './dispatch/forms-webhook-dispatch';
export * from './endpoints/endpoint-secrets';
