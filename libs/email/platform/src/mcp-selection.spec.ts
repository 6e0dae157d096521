import { mcpOperation } from './mcp-operations';
import { mcpExclusion, mcpSelectionFromHeaders, parseMcpSelection, selectMcpOperations } from './mcp-selection';

describe('MCP selection', () => {
  it('defaults to the full toolset, every operation, read and write', () => {
    expect(parseMcpSelection({})).toEqual({ selection: { toolsets: ['full_email_marketing_access'], operationIds: null, readOnly: false }, problems: [] });
  });

  it('reads comma-separated toolsets and operation ids and a boolean read_only', () => {
    expect(parseMcpSelection({ toolsets: 'reporting, broadcasts,reporting', operationIds: 'listTags,getTag', readOnly: 'TRUE' }).selection).toEqual({
      toolsets: ['reporting', 'broadcasts'],
      operationIds: ['listTags', 'getTag'],
      readOnly: true,
    });
    expect(parseMcpSelection({ readOnly: '0' }).selection.readOnly).toBe(false);
  });

  it('names each parameter with a value it does not know', () => {
    expect(parseMcpSelection({ toolsets: 'reporting,nope', operationIds: 'listNothing', readOnly: 'maybe' }).problems.map((p) => p.field)).toEqual([
      'toolsets',
      'operation_ids',
      'read_only',
    ]);
  });

  it('is absent for a plain REST call and tolerant of unknown values in the contract headers', () => {
    expect(mcpSelectionFromHeaders({ accept: 'application/json' })).toBeUndefined();
    expect(mcpSelectionFromHeaders({ 'mailrith-mcp-toolsets': 'nope', 'mailrith-mcp-read-only': 'true' })).toEqual({
      toolsets: ['full_email_marketing_access'],
      operationIds: null,
      readOnly: true,
    });
  });

  it('keeps implemented operations of the toolsets, then of the ids, then the reads in read-only mode', () => {
    const implemented = ['listTags', 'createTag', 'createBroadcast', 'listGadgets'];
    const pick = (toolsets: string[], readOnly = false, operationIds: string[] | null = null) =>
      selectMcpOperations(implemented, { toolsets, operationIds, readOnly }).map((op) => op.operationId);
    expect(pick(['full_email_marketing_access'])).toEqual(['listTags', 'createTag', 'createBroadcast']);
    expect(pick(['subscriber_management'])).toEqual(['listTags', 'createTag']);
    expect(pick(['subscriber_management'], true)).toEqual(['listTags']);
    expect(pick(['full_email_marketing_access'], false, ['createBroadcast'])).toEqual(['createBroadcast']);
    expect(mcpExclusion(mcpOperation('createTag')!, { toolsets: ['reporting'], operationIds: null, readOnly: false })).toBe('toolset');
  });
});
