import { Provider } from '@nestjs/common';
import { ApiDescription } from './api-description';
import { CapabilitiesService } from './capabilities.service';
import { DeliveryConnectionStateRepository } from './delivery-connection-state.repository';

export * from './api-metadata.dto';
export * from './api-metadata';
export * from './api-resources';
export * from './api-operations';
export * from './api-catalog';
export * from './api-description';
export * from './capabilities.dto';
export * from './capabilities';
export * from './capabilities.service';
export * from './delivery-connection-state.repository';
export * from './llms-text';
export * from './openapi-document';

/** Register these in the app module's providers (the API description needs configureHttpApp at boot). */
export const EMAIL_PLATFORM_PROVIDERS: Provider[] = [ApiDescription, CapabilitiesService, DeliveryConnectionStateRepository];
