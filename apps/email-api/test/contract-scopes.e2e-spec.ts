/**
 * Every implemented operation, driven from the contract's operation list: without a credential it is a
 * 401 envelope, and with a key lacking its scopes a 403 naming exactly the contract's required scopes.
 */
import { concretePath, contractOperations, isUnserved, methodOf } from './contract';
import { emailApi, EmailApiHarness } from './helpers';

const operations = contractOperations();

/** The operations this service must serve today. */
const REQUIRED = [
  'getPublicApiMeta',
  'getWorkspace',
  'listSubscribers',
  'upsertSubscriber',
  'getSubscriber',
  'updateSubscriber',
  'deleteSubscriber',
  'updateSubscriberStatus',
  'addSubscriberTag',
  'removeSubscriberTag',
  'addSubscriberSequence',
  'removeSubscriberSequence',
  'listTags',
  'createTag',
  'getTag',
  'updateTag',
  'deleteTag',
  'listCustomFields',
  'createCustomField',
  'getCustomField',
  'updateCustomField',
  'deleteCustomField',
  'listSenderIdentities',
  'getSenderIdentity',
];

describe('email-api: authentication and scopes of every implemented operation', () => {
  let h: EmailApiHarness;
  let unrelatedKey: string;

  beforeAll(async () => {
    h = await emailApi();
    unrelatedKey = await h.keyWith(['analytics:read']);
  });
  afterAll(() => h?.close());

  it('serves every required operation at the contract path and method, with the contract scopes', async () => {
    const implemented: string[] = [];
    for (const op of operations) {
      const method = methodOf(op);
      const url = concretePath(op.path);
      const anonymous = await h.as('').request(method, url);
      if (isUnserved(anonymous)) continue;
      implemented.push(op.operation_id);
      if (!op.auth_required) {
        expect({ op: op.operation_id, status: anonymous.status }).toEqual({ op: op.operation_id, status: 200 });
        continue;
      }
      expect({ op: op.operation_id, status: anonymous.status, type: anonymous.body.error?.type }).toEqual({
        op: op.operation_id,
        status: 401,
        type: 'authentication_error',
      });
      const denied = await h.as(unrelatedKey).request(method, url);
      if (!op.required_scopes.length || op.required_scopes.every((s) => s === 'analytics:read')) continue;
      expect({ op: op.operation_id, status: denied.status, required: denied.body.error?.required_scopes }).toEqual({
        op: op.operation_id,
        status: 403,
        required: op.required_scopes,
      });
    }
    expect(implemented).toEqual(expect.arrayContaining(REQUIRED));
  });
});
