import { FORMS_TOOLS } from './catalogue';
import { buildFormsTools, FormsApiDocument } from './tools';

const operation = (operationId: string) => ({ operationId, responses: { '200': { content: { 'application/json': { schema: { type: 'object' } } } } } });

/** A document with every catalogue route, each a bodiless GET answering an object. */
const documentWith = (skip?: string): FormsApiDocument => ({
  paths: Object.fromEntries(FORMS_TOOLS.filter((spec) => spec.operationId !== skip).map((spec) => [`/x/${spec.tool}`, { get: operation(spec.operationId) }])),
  components: {
    schemas: {
      FormSummaryDto: { type: 'object' },
      ValidationReportDto: { type: 'object' },
    },
  },
});

describe('forms MCP tools', () => {
  it('makes one tool per catalogue entry, prefixed, with the tool name as the output operation_id', () => {
    const tools = buildFormsTools(documentWith());
    expect(tools.map((tool) => tool.name)).toEqual(FORMS_TOOLS.map((spec) => `postline_${spec.tool}`));
    const publish = tools.find((tool) => tool.name === 'postline_publish_form')!;
    expect(publish.outputSchema).toMatchObject({ properties: { operation_id: { const: 'postline_publish_form' } }, required: ['operation_id'] });
    expect(publish.outputSchema.$defs).toHaveProperty('FormSummaryDto');
  });

  it('fails when the schema pack lacks a route the catalogue names', () => {
    expect(() => buildFormsTools(documentWith('validateDraft'))).toThrow(/validate_draft runs "validateDraft"/);
  });

  it('names the draft schema in output schemas without spelling it out, and keeps no definition only it used', () => {
    const document = documentWith();
    const getForm = FORMS_TOOLS.find((spec) => spec.tool === 'get_form')!;
    document.paths[`/x/get_form`] = {
      get: {
        operationId: getForm.operationId,
        responses: { '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/FormDetailDto' } } } } },
      },
    };
    document.components!.schemas = {
      ...document.components!.schemas,
      FormDetailDto: { type: 'object', properties: { draft_schema: { $ref: '#/components/schemas/DraftSchema' } } },
      DraftSchema: { type: 'object', properties: { steps: { type: 'array', items: { $ref: '#/components/schemas/Step' } } } },
      Step: { type: 'object', properties: { title: { type: 'string' } } },
    };
    const tool = buildFormsTools(document).find((candidate) => candidate.spec.tool === 'get_form')!;
    const defs = tool.outputSchema.$defs as Record<string, { type?: string; properties?: unknown; description?: string }>;
    expect(defs.DraftSchema).toEqual({ type: 'object', description: expect.stringContaining('/api/v1/openapi.json') });
    expect(defs).not.toHaveProperty('Step');
    expect(defs).toHaveProperty('FormDetailDto');
  });
});
