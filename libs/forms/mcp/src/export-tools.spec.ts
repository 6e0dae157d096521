import { callExportTool, EXPORT_TOOLS, findExportTool, SubmissionExportsPort } from './export-tools';

const create = findExportTool('postline_create_submission_export')!;

describe('forms MCP export tools', () => {
  it('are found by name or dotted alias, each needing submissions:read', () => {
    expect(findExportTool('postline.get_submission_export')).toBe(EXPORT_TOOLS[1]);
    expect(EXPORT_TOOLS.map((tool) => tool.scopes)).toEqual([['submissions:read'], ['submissions:read']]);
  });

  it('pass the selection without formId and idempotencyKey, and answer the port’s errors in the tool envelope', async () => {
    const start = jest.fn<ReturnType<SubmissionExportsPort['start']>, Parameters<SubmissionExportsPort['start']>>(async () => ({
      status: 404,
      headers: {},
      body: { error: { type: 'not_found', code: 'form_not_found', message: 'No form frm_x.' } },
    }));
    const result = await callExportTool(create, { start, get: jest.fn() }, { formId: 'frm_x', filters: { search: 'a' }, idempotencyKey: 'k1' });
    expect(start).toHaveBeenCalledWith('frm_x', { filters: { search: 'a' } }, 'k1');
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ operation_id: create.name, error: { category: 'request', code: 'form_not_found', status: 404 } });
  });

  it('refuse a missing formId before any call, and answer not available without a port', async () => {
    const port = { start: jest.fn(), get: jest.fn() };
    expect((await callExportTool(create, port, {})).structuredContent).toMatchObject({ error: { code: 'invalid_tool_arguments' } });
    expect(port.start).not.toHaveBeenCalled();
    expect((await callExportTool(create, undefined, { formId: 'frm_x' })).structuredContent).toMatchObject({ error: { code: 'not_available', status: 501 } });
  });
});
