/**
 * Generated from the contract's scope table: for every implemented operation that needs two or more scopes, a key
 * holding all of them but one gets 403 `insufficient_scope` naming exactly the missing one, and a key holding all of
 * them gets past the scope check. Catches a scope guard that lets a key through on any one of the required scopes.
 */
import { concretePath, contractOperations, isImplemented, methodOf } from './contract';
import { emailApi, EmailApiHarness } from './helpers';

const multiScope = contractOperations().filter((op) => op.auth_required && op.required_scopes.length >= 2);

/** Multi-scope operations this service serves today; the test fails if any of them is not checked. */
const KNOWN = ['upsertSubscriber', 'updateSubscriberStatus', 'addSubscriberTag', 'removeSubscriberTag', 'addSubscriberSequence', 'removeSubscriberSequence'];

describe('email-api: a key missing one of several required scopes', () => {
  let h: EmailApiHarness;
  beforeAll(async () => {
    h = await emailApi({ RATE_LIMIT_REQUESTS: '0' });
  });
  afterAll(() => h?.close());

  it('is refused with 403 naming exactly that scope, for every scope of every implemented multi-scope operation', async () => {
    const checked: string[] = [];
    for (const op of multiScope) {
      if (!(await isImplemented(h, op))) continue;
      checked.push(op.operation_id);
      const url = concretePath(op.path);
      for (const missing of op.required_scopes) {
        const key = await h.keyWith(op.required_scopes.filter((scope) => scope !== missing));
        const res = await h.as(key).request(methodOf(op), url).send({});
        expect({ op: op.operation_id, missing, status: res.status, error: res.body.error }).toEqual({
          op: op.operation_id,
          missing,
          status: 403,
          error: expect.objectContaining({
            type: 'permission_error',
            code: 'insufficient_scope',
            missing_scopes: [missing],
            required_scopes: op.required_scopes,
          }),
        });
      }
      const full = await h
        .as(await h.keyWith(op.required_scopes))
        .request(methodOf(op), url)
        .send({});
      expect({ op: op.operation_id, status: full.status, code: full.body.error?.code }).not.toEqual(expect.objectContaining({ status: 403 }));
    }
    expect(checked).toEqual(expect.arrayContaining(KNOWN));
  });
});
