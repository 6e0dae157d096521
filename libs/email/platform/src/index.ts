import { Provider } from '@nestjs/common';
import { ApiDescription } from './api-description';
import { CapabilitiesService } from './capabilities.service';

export * from './api-metadata.dto';
export * from './api-metadata';
export * from './api-resources';
export * from './api-operations';
export * from './api-catalog';
export * from './api-description';
export * from './capabilities.dto';
export * from './capabilities';
export * from './capabilities.service';
export * from './llms-text';
export * from './mcp-operations';
export * from './mcp-selection';
export * from './openapi-document';
export * from './unavailable-features';

/**
 * Register these in the app module's providers (the API description needs configureHttpApp at boot); the app
 * module also imports EmailDeliveryModule, which answers the capabilities' delivery connection question.
 */
export const EMAIL_PLATFORM_PROVIDERS: Provider[] = [ApiDescription, CapabilitiesService];
