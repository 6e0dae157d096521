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
});
