import { existsSync } from 'node:fs';
import path from 'node:path';
import { createTestDatabase, TestDatabase } from '@shared/testing';
import { REPO_ROOT } from './databases';

/**
 * For the forms benchmark tests: checks that forms-api is built and gives the file a forms database of its own,
 * dropped afterwards. Call at describe level; `url()` is the database's URL once the tests run.
 */
export function useFormsTestDatabase(): { url(): string } {
  let db: TestDatabase;
  beforeAll(async () => {
    if (!existsSync(path.join(REPO_ROOT, 'apps/forms-api/dist/main.js'))) throw new Error('apps/forms-api is not built: run npm test (it builds first)');
    db = await createTestDatabase('forms');
  });
  afterAll(async () => {
    await db?.drop();
  });
  return { url: () => db.url };
}
