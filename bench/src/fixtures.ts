import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ConfigModule } from '@shared/config';
import { CoreModule } from '@shared/core';
import { EmailDataAccessModule } from '@email/data-access';
import { AccessService, EmailAccessModule } from '@email/access';

@Module({})
class BenchFixturesModule {}

/** Issues an API key with `scopes` for an existing workspace, the way the admin CLI does (AccessService). */
export async function issueApiKey(databaseUrl: string, workspaceId: string, scopes: string[], name = 'Bench key'): Promise<{ id: string; api_key: string }> {
  const app = await NestFactory.createApplicationContext(
    {
      module: BenchFixturesModule,
      imports: [ConfigModule.forRoot({}, { emailDatabaseUrl: databaseUrl }), CoreModule, EmailDataAccessModule, EmailAccessModule],
    },
    { logger: false },
  );
  try {
    return await app.get(AccessService).createApiKey(workspaceId, { scopes, name });
  } finally {
    await app.close();
  }
}

/** One JSON call to a running API; throws with the answer's body unless the status is `expect` (or any 2xx). */
export async function callApi<T = unknown>(
  baseUrl: string,
  method: string,
  pathAndQuery: string,
  options: { key?: string; body?: unknown; expect?: number } = {},
): Promise<{ status: number; body: T; text: string }> {
  const response = await fetch(`${baseUrl}${pathAndQuery}`, {
    method,
    headers: {
      ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
  });
  const text = await response.text();
  const ok = options.expect !== undefined ? response.status === options.expect : response.ok;
  if (!ok) throw new Error(`${method} ${pathAndQuery} answered ${response.status}: ${text.slice(0, 500)}`);
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T, text };
}
