import { NestFastifyApplication } from '@nestjs/platform-fastify';
import request from 'supertest';
import { AccountsService } from '@forms/accounts';
import { createTestApp, createTestDatabase, TestDatabase } from '@shared/testing';
import { AppModule } from '../src/app.module';

export interface Account {
  ownerId: string;
  workspaceId: string;
  key: string;
}

export interface Agent {
  get(path: string): request.Test;
  post(path: string): request.Test;
  put(path: string): request.Test;
  patch(path: string): request.Test;
  delete(path: string): request.Test;
}

export interface FormsApiHarness {
  app: NestFastifyApplication;
  db: TestDatabase;
  accounts: AccountsService;
  /** The first account: owner of its workspace, with an all-scopes key. */
  main: Account;
  /** A supertest agent; an empty key sends no Authorization header. */
  as(key?: string): Agent;
  newAccount(email: string): Promise<Account>;
  keyWith(ownerId: string, scopes: readonly string[]): Promise<string>;
  close(): Promise<void>;
}

/** Every test speaks from 127.0.0.1 into one shared Redis: public limits are off unless a test sets them. */
const PUBLIC_LIMITS_OFF = {
  FORMS_SUBMISSIONS_PER_IP: '0',
  FORMS_SUBMISSIONS_PER_FORM: '0',
  FORMS_UPLOADS_PER_IP: '0',
  FORMS_UPLOADS_PER_FORM: '0',
  FORMS_HOSTED_PAGES_PER_IP: '0',
  MCP_PUBLIC_REQUESTS_PER_IP: '0',
};

/** Boots forms-api on a fresh database with one account. */
export async function formsApi(env: Record<string, string> = {}): Promise<FormsApiHarness> {
  const db = await createTestDatabase('forms');
  const app = await createTestApp(AppModule, { FORMS_DATABASE_URL: db.url, AUTH_CACHE_TTL_MS: '0', RATE_LIMIT_REQUESTS: '0', ...PUBLIC_LIMITS_OFF, ...env });
  const accounts = app.get(AccountsService);
  const newAccount = async (email: string): Promise<Account> => {
    const created = await accounts.createAccount({ email });
    return { ownerId: created.owner_id, workspaceId: created.workspace_id, key: created.api_key };
  };
  const main = await newAccount('owner@example.com');
  const as = (key = main.key): Agent => {
    const server = app.getHttpServer();
    const auth = (test: request.Test) => (key ? test.set('authorization', `Bearer ${key}`) : test);
    return {
      get: (path) => auth(request(server).get(path)),
      post: (path) => auth(request(server).post(path)),
      put: (path) => auth(request(server).put(path)),
      patch: (path) => auth(request(server).patch(path)),
      delete: (path) => auth(request(server).delete(path)),
    };
  };
  return {
    app,
    db,
    accounts,
    main,
    as,
    newAccount,
    keyWith: async (ownerId, scopes) => (await accounts.createApiKey(ownerId, { scopes: [...scopes] })).api_key,
    close: async () => {
      await app.close();
      await db.drop();
    },
  };
}

/** A small valid draft: two steps, a text and an email field. */
export function twoStepDraft(name = 'Customer Intake') {
  return {
    settings: { name },
    steps: [
      { id: 'stp_about', title: 'About you', fields: [{ id: 'fld_name', type: 'text', label: 'Your name', required: true }] },
      { id: 'stp_contact', title: 'Contact', fields: [{ id: 'fld_email', type: 'email', label: 'Email', required: true }] },
    ],
  };
}
