import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ConfigModule } from '@shared/config';
import { CoreModule } from '@shared/core';
import { EmailDataAccessModule } from '@email/data-access';
import { AccessService, EmailAccessModule } from '@email/access';

@Module({})
class BenchAccessModule {}

export interface BenchWorkspace {
  workspace_id: string;
  /** An API key holding every email scope. */
  api_key: string;
  api_key_id: string;
}

/** Creates a workspace and its all-scopes key the way the admin CLI does (AccessService), against `databaseUrl`. */
export async function createWorkspaceWithKey(databaseUrl: string, name: string): Promise<BenchWorkspace> {
  const app = await NestFactory.createApplicationContext(
    {
      module: BenchAccessModule,
      imports: [ConfigModule.forRoot({}, { emailDatabaseUrl: databaseUrl }), CoreModule, EmailDataAccessModule, EmailAccessModule],
    },
    { logger: false },
  );
  try {
    return await app.get(AccessService).createWorkspace(name);
  } finally {
    await app.close();
  }
}
