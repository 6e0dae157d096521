/** The two documents the contract test compares: the contract's, and ours as the app generates it. */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Test } from '@nestjs/testing';
import { createFastifyAdapter } from '@shared/bootstrap';
import { loadConfig } from '@shared/config';
import { createOpenApiDocument } from '@email/platform';
import { AppModule, EMAIL_HTTP_OPTIONS } from '../../src/app.module';
import { OpenApiDocument } from './compare';

export const CONTRACT_OPENAPI_FILE = path.resolve(__dirname, '../../../../../shared/spec/email-openapi-contract.json');

/** The contract's document; a missing file fails the test (CI and development both have the spec beside the repository). */
export function readContractDocument(): OpenApiDocument {
  if (!existsSync(CONTRACT_OPENAPI_FILE)) throw new Error(`contract OpenAPI document not found at ${CONTRACT_OPENAPI_FILE}`);
  return JSON.parse(readFileSync(CONTRACT_OPENAPI_FILE, 'utf8')) as OpenApiDocument;
}

/**
 * Our document, generated from the app's controllers and DTOs in Nest's preview mode: nothing is instantiated,
 * so no database or Redis is needed (the e2e discovery test checks the served document is the same).
 */
export async function generateOwnDocument(): Promise<OpenApiDocument> {
  const config = loadConfig();
  const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile({ preview: true });
  const app = moduleRef.createNestApplication(createFastifyAdapter(config, EMAIL_HTTP_OPTIONS), { logger: false, preview: true });
  return createOpenApiDocument(app, config) as unknown as OpenApiDocument;
}
