/**
 * The schema pack: the OpenAPI 3.1 document of the /api/v1 surface (JSON and YAML), llms.txt and api-docs.txt.
 * It must validate, list exactly the routes the app serves under /api/v1, state the scopes the guard enforces, and
 * describe the bodies real requests get back.
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPIObject, OperationObject } from '@nestjs/swagger';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import request from 'supertest';
import { parse } from 'yaml';
import { appRoutes } from '@shared/testing';
import { FORMS_SCOPES } from '@forms/accounts';
import { FIELD_TYPES } from '@forms/draft-schema';
import { documentedOperations, type DocumentedOperation } from '../src/schema-pack/openapi-document';
import { SchemaPack } from '../src/schema-pack/schema-pack';
import { formsApi, FormsApiHarness, twoStepDraft } from './helpers';

/** Served routes the pack leaves out on purpose (spec: the API-key-safe /api/v1 surface only), each with why. */
const OUTSIDE_THE_PACK: { route: RegExp; why: string }[] = [
  { route: /^GET \/(healthz|readyz|metrics)$/, why: 'process probes, not API' },
  { route: /^GET \/(favicon\.ico|f\/.*)$/, why: 'the hosted form page and its assets, for browsers' },
  { route: /^POST \/api\/public\//, why: 'public runtime endpoints respondents call without an API key (submissions, uploads, payments)' },
  { route: /^\w+ \/api\/(forms|workspaces)\//, why: 'app-session endpoints (response exports, integrations), not the API-key transport' },
  { route: /^\w+ \/api\/payments\//, why: 'inbound payment-provider webhooks' },
  { route: /^GET \/(openapi\.yaml|llms\.txt|api-docs\.txt)$/, why: 'the pack itself, in its other forms' },
  { route: /^(GET|POST) \/api\/mcp$/, why: "the MCP endpoint, whose tools run the pack's operations" },
  { route: /^GET \/\.well-known\/oauth-protected-resource\/api\/mcp$/, why: "the MCP endpoint's protected-resource metadata (RFC 9728)" },
  { route: /^(GET|OPTIONS) \/\.well-known\/(oauth-authorization-server|openid-configuration)$/, why: 'the OAuth authorization server metadata (RFC 8414)' },
  { route: /^(GET|POST|OPTIONS) \/oauth\/(register|authorize|token|revoke)$/, why: 'the OAuth 2.1 endpoints MCP clients use (RFC 7591, 6749, 7009)' },
  { route: /^(GET|POST) \/account\//, why: 'the browser sign-in and connected-apps pages' },
  { route: /^GET \/api\/session$/, why: 'the signed-in app session (owner and CSRF token), not the API-key transport' },
];

type Method = DocumentedOperation['method'];

const toOpenApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');
const routeKey = (method: string, path: string) => `${method.toUpperCase()} ${path}`;
const documentedScopes = (operation: OperationObject) => operation.security?.[0]?.ApiKey;

/** Ajv (2020-12, the dialect of OpenAPI 3.1) over the document's components, with OpenAPI's own keywords allowed. */
function responseValidator(document: OpenAPIObject) {
  const ajv = new Ajv2020({ strict: true, strictTypes: false, allErrors: true });
  addFormats(ajv);
  for (const keyword of ['components', 'discriminator', 'example']) ajv.addKeyword(keyword);
  // Closed copies of the object schemas, so an undocumented member of a real answer fails the comparison.
  const closed = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(closed);
    if (typeof node !== 'object' || node === null) return node;
    const copy = Object.fromEntries(
      Object.entries(node).map(([key, value]) => [
        key,
        key === 'properties' ? Object.fromEntries(Object.entries(value as object).map(([name, schema]) => [name, closed(schema)])) : closed(value),
      ]),
    );
    return 'properties' in copy && !('additionalProperties' in copy) ? { ...copy, additionalProperties: false } : copy;
  };
  ajv.addSchema({ $id: 'pack', components: { schemas: closed(document.components!.schemas) } });
  const compiled = new Map<string, ValidateFunction>();
  return (method: Method, path: string, status: number, body: unknown): string[] => {
    const responses = document.paths[path]?.[method]?.responses ?? {};
    const schema = (responses[String(status)] as { content?: Record<string, { schema?: { $ref?: string } }> } | undefined)?.content?.['application/json']
      ?.schema;
    if (!schema?.$ref) return [`${routeKey(method, path)} documents no JSON schema for ${status}`];
    const validate = compiled.get(schema.$ref) ?? ajv.compile({ $ref: `pack${schema.$ref}` });
    compiled.set(schema.$ref, validate);
    return validate(body)
      ? []
      : (validate.errors ?? []).map((e) => `${routeKey(method, path)} ${status}: ${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
  };
}

describe('schema pack', () => {
  let api: FormsApiHarness;
  let document: OpenAPIObject;

  beforeAll(async () => {
    api = await formsApi();
    const res = await api.as('').get('/api/v1/openapi.json').expect(200);
    document = JSON.parse(res.text) as OpenAPIObject;
  });
  afterAll(() => api.close());

  describe('serving', () => {
    it.each([
      ['/api/v1/openapi.json', 'application/json'],
      ['/openapi.yaml', 'application/yaml'],
      ['/llms.txt', 'text/plain'],
      ['/api-docs.txt', 'text/plain'],
    ])('serves %s without a key, as %s, cacheable', async (path, type) => {
      const res = await api.as('').get(path).expect(200);
      expect(res.headers['content-type']).toContain(type);
      expect(res.headers['cache-control']).toBe('public, max-age=300');
    });

    it('serves the same document as YAML and JSON, built once per process', async () => {
      const yaml = await api.as('').get('/openapi.yaml').expect(200);
      expect(parse(yaml.text)).toEqual(document);
      const pack = api.app.get(SchemaPack);
      expect(pack.files()).toBe(pack.files());
    });

    it('points agents at the pack, the main flows and every operation', async () => {
      const llms = (await api.as('').get('/llms.txt')).text;
      for (const path of ['/openapi.yaml', '/api/v1/openapi.json', '/api-docs.txt', 'Authorization: Bearer']) expect(llms).toContain(path);
      const docs = (await api.as('').get('/api-docs.txt')).text;
      for (const { method, path } of documentedOperations(document)) {
        expect(llms).toContain(`${method.toUpperCase()} ${path}:`);
        expect(docs).toContain(`${method.toUpperCase()} ${path} `);
      }
      for (const type of FIELD_TYPES) expect(docs).toContain(`\n${type}: `);
    });
  });

  describe('the document', () => {
    it('is a valid OpenAPI 3.1 document whose every $ref resolves', async () => {
      expect(document.openapi).toBe('3.1.0');
      await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
    });

    it('compiles every component as strict JSON Schema 2020-12', () => {
      const ajv = new Ajv2020({ strict: true, strictTypes: false });
      addFormats(ajv);
      for (const keyword of ['components', 'discriminator', 'example']) ajv.addKeyword(keyword);
      ajv.addSchema({ $id: 'pack', components: document.components });
      for (const name of Object.keys(document.components!.schemas!)) expect(() => ajv.compile({ $ref: `pack#/components/schemas/${name}` })).not.toThrow();
    });

    it('lists exactly the routes the app serves under /api/v1, and keeps out only what the spec keeps out', () => {
      const fastify = api.app.getHttpAdapter().getInstance();
      const served = appRoutes(api.app);
      for (const route of served) expect({ route, served: fastify.hasRoute({ method: route.method, url: route.path }) }).toEqual({ route, served: true });

      const documented = new Set(documentedOperations(document).map(({ method, path }) => routeKey(method, path)));
      const undocumented = served
        .map((route) => routeKey(route.method, toOpenApiPath(route.path)))
        .filter((key) => !documented.has(key))
        .filter((key) => !OUTSIDE_THE_PACK.some(({ route }) => route.test(key)));
      expect(undocumented).toEqual([]);
      const servedKeys = new Set(served.map((route) => routeKey(route.method, toOpenApiPath(route.path))));
      expect([...documented].filter((key) => !servedKeys.has(key))).toEqual([]);
      expect([...documented].filter((key) => !key.split(' ')[1].startsWith('/api/v1/'))).toEqual([]);
      expect([...servedKeys].filter((key) => key.split(' ')[1].startsWith('/api/v1/') && !documented.has(key))).toEqual([]);
    });

    it('answers every success with a named schema, and every error with the one Error schema', () => {
      for (const { method, path, operation } of documentedOperations(document)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          const content = (response as { content?: Record<string, { schema?: { $ref?: string } }> }).content ?? {};
          const where = `${routeKey(method, path)} ${status}`;
          if (status.startsWith('2') && content['application/json'] && operation.operationId !== 'getOpenApiDocument')
            expect({ where, ref: typeof content['application/json'].schema?.$ref }).toEqual({ where, ref: 'string' });
          if (!status.startsWith('2'))
            expect({ where, schema: content['application/json']?.schema }).toEqual({ where, schema: { $ref: '#/components/schemas/Error' } });
        }
      }
    });

    it('publishes the full field catalogue as a discriminated oneOf on type', () => {
      const field = document.components!.schemas!.Field as { oneOf: unknown[]; discriminator: { propertyName: string; mapping: Record<string, string> } };
      expect(field.discriminator.propertyName).toBe('type');
      expect(Object.keys(field.discriminator.mapping).sort()).toEqual([...FIELD_TYPES].sort());
      expect(field.oneOf).toHaveLength(FIELD_TYPES.length);
      const codes = (document.components!.schemas!.ErrorBody as { properties: { code: { enum: string[] } } }).properties.code.enum;
      expect(codes).toEqual(expect.arrayContaining(['form_not_found', 'stale_draft_revision', 'insufficient_scope']));
    });
  });

  describe('scopes', () => {
    /** A path with made-up ids: the scope guard answers before anything looks a form up. */
    const concrete = (path: string) => path.replace(/\{(\w+)\}/g, 'x_1');
    const send = (key: string, method: Method, path: string) => {
      const test = request(api.app.getHttpServer())[method](concrete(path)).set('authorization', `Bearer ${key}`);
      return method === 'get' || method === 'delete' ? test : test.send({});
    };

    it('documents for each operation exactly the scopes the guard enforces', async () => {
      const mismatches: string[] = [];
      for (const { method, path, operation } of documentedOperations(document)) {
        const scopes = documentedScopes(operation);
        if (scopes === undefined) {
          expect({ path, security: operation.security }).toEqual({ path, security: [] });
          continue;
        }
        // Without scopes documented, a key holding one unrelated scope must do.
        const others = scopes.length ? FORMS_SCOPES.filter((scope) => !scopes.includes(scope)) : ['submissions:create'];
        const without = await send(await api.keyWith(api.main.ownerId, others), method, path);
        const refused = without.status === 403 && without.body.error?.code === 'insufficient_scope';
        if (scopes.length && !(refused && JSON.stringify(without.body.error.required_scopes) === JSON.stringify(scopes)))
          mismatches.push(
            `${routeKey(method, path)}: documented ${scopes.join(',')}, a key without them got ${without.status} ${JSON.stringify(without.body.error?.required_scopes)}`,
          );
        if (!scopes.length && refused)
          mismatches.push(`${routeKey(method, path)}: documented no scope, the guard asked for ${without.body.error.required_scopes}`);
        if (scopes.length) {
          const only = await send(await api.keyWith(api.main.ownerId, scopes), method, path);
          if (only.body.error?.code === 'insufficient_scope') mismatches.push(`${routeKey(method, path)}: the documented scopes are not enough`);
        }
      }
      expect(mismatches).toEqual([]);
    });
  });

  describe('real answers match their documented schemas', () => {
    it('for a form written, published, submitted to and read back, and for errors', async () => {
      const valid = responseValidator(document);
      const errors: string[] = [];
      const check = async (method: Method, path: string, send: (agent: ReturnType<FormsApiHarness['as']>) => request.Test) => {
        const res = await send(api.as());
        errors.push(...valid(method, path, res.status, res.body));
        return res;
      };

      await check('get', '/api/v1/me', (a) => a.get('/api/v1/me'));
      const created = await check('post', '/api/v1/forms', (a) => a.post('/api/v1/forms').send({ draftSchema: twoStepDraft() }));
      expect(created.status).toBe(201);
      const formId = created.body.data.id as string;
      const form = (suffix: string) => `/api/v1/forms/${formId}${suffix}`;
      await check('get', '/api/v1/forms', (a) => a.get('/api/v1/forms'));
      await check('get', '/api/v1/forms/{form_id}', (a) => a.get(form('')));
      await check('post', '/api/v1/forms/{form_id}/steps', (a) => a.post(form('/steps')).send({ title: 'More', position: 1 }));
      const step = (await api.as().get(form(''))).body.draft_schema.steps[1].id as string;
      for (const field of [
        { type: 'single_choice', label: 'Pick', options: [{ label: 'A' }, { label: 'B' }] },
        { type: 'rating', label: 'Rate' },
        { type: 'hidden', name: 'ref' },
        { type: 'payment', label: 'Pay', currency: 'USD', amount: 500 },
      ]) {
        await check('post', '/api/v1/forms/{form_id}/steps/{step_id}/fields', (a) => a.post(form(`/steps/${step}/fields`)).send(field));
      }
      await check('patch', '/api/v1/forms/{form_id}/fields/{field_id}', (a) => a.patch(form('/fields/fld_name')).send({ placeholder: 'Ada' }));
      await check('put', '/api/v1/forms/{form_id}/steps/{step_id}/logic', (a) =>
        a.put(form('/steps/stp_about/logic')).send({ rules: [{ conditions: [], target: 'stp_contact' }], fallbackTarget: 'end' }),
      );
      await check('patch', '/api/v1/forms/{form_id}/design', (a) => a.patch(form('/design')).send({ theme: { primaryColor: '#123456' } }));
      await check('post', '/api/v1/forms/{form_id}/steps/reorder', (a) =>
        a.post(form('/steps/reorder')).send({ step_ids: ['stp_about', step, 'stp_contact'] }),
      );
      await check('delete', '/api/v1/forms/{form_id}/steps/{step_id}', (a) => a.delete(form(`/steps/${step}`)));
      const published = await check('post', '/api/v1/forms/{form_id}/publish', (a) => a.post(form('/publish')).send({}));
      expect(published.status).toBe(200);
      const submitted = await check('post', '/api/v1/forms/{form_id}/submissions', (a) =>
        a.post(form('/submissions')).send({ values: { fld_name: 'Ada', fld_email: 'ada@example.com' }, analyticsSessionId: 's1' }),
      );
      expect(submitted.status).toBe(201);
      await check('get', '/api/v1/forms/{form_id}/submissions', (a) => a.get(form('/submissions')));
      await check('get', '/api/v1/forms/{form_id}/submissions/{submission_id}', (a) => a.get(form(`/submissions/${submitted.body.submission.id}`)));

      // Errors: a missing form, an invalid draft with its issues, a stale revision, a missing scope, no key.
      await check('get', '/api/v1/forms/{form_id}', (a) => a.get('/api/v1/forms/frm_missing'));
      await check('put', '/api/v1/forms/{form_id}/draft', (a) => a.put(form('/draft')).send({ draftSchema: { steps: [{ fields: [{ type: 'nope' }] }] } }));
      await check('patch', '/api/v1/forms/{form_id}', (a) => a.patch(form('')).send({ title: 'Old', draft_revision: 0 }));
      const readOnly = await api.keyWith(api.main.ownerId, ['forms:read']);
      await check('delete', '/api/v1/forms/{form_id}', () => api.as(readOnly).delete(form('')));
      await check('get', '/api/v1/forms', () => api.as('').get('/api/v1/forms'));
      await check('post', '/api/v1/forms/{form_id}/submissions', (a) =>
        a.post(form('/submissions')).send({ values: { fld_name: 'Ada', fld_email: 'ada@example.com' }, analyticsSessionId: 's1' }),
      );
      await check('post', '/api/v1/forms/{form_id}/close', (a) => a.post(form('/close')));
      await check('delete', '/api/v1/forms/{form_id}', (a) => a.delete(form('')));

      expect(errors).toEqual([]);
    });
  });
});
