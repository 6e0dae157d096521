import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { McpOperation, MCP_OPERATIONS } from './mcp-operations';
import { MCP_TOOLSETS } from './mcp-selection';

const SPEC = path.resolve(__dirname, '../../../../../shared/spec');
const GENERATED = path.join(__dirname, 'mcp-operations.generated.ts');

interface SpecOperation {
  operation_id: string;
  mcp_tool_name: string;
  method: string;
  path: string;
  description: string;
  toolsets: string[];
  header_params: string[];
  annotations: { title: string; readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
}

/** The operation table of the contract and its notes (§3 names the 55 tools of the submitted profile). */
function fromSpec(): McpOperation[] {
  const file = path.join(SPEC, 'email-operations.json');
  if (!existsSync(file)) throw new Error(`contract operation list not found at ${file}`);
  const groups = JSON.parse(readFileSync(file, 'utf8')) as Array<{ operations: SpecOperation[] }>;
  const notes = readFileSync(path.join(SPEC, 'email-contract-notes.md'), 'utf8');
  const submitted = new Set([...notes.matchAll(/^\| `(\w+)` \| `[^|]*` \| `\w+` \| yes \|/gm)].map((m) => m[1]));
  return groups
    .flatMap((g) => g.operations)
    .map((op) => {
      const { title, readOnlyHint, destructiveHint, idempotentHint, openWorldHint } = op.annotations;
      return {
        operationId: op.operation_id,
        toolName: op.mcp_tool_name,
        method: op.method,
        path: op.path,
        title,
        description: op.description,
        toolsets: op.toolsets,
        annotations: { readOnlyHint, destructiveHint, idempotentHint, openWorldHint },
        idempotencyKey: op.header_params.includes('Idempotency-Key'),
        submitted: submitted.has(op.operation_id),
      };
    });
}

describe('MCP operation catalogue', () => {
  it('is the contract operation table, kept in the repository (regenerate with UPDATE_MCP_OPERATIONS=1)', () => {
    const expected = fromSpec();
    if (process.env.UPDATE_MCP_OPERATIONS === '1') {
      const header = '// Generated from ../shared/spec/email-operations.json and email-contract-notes.md §3 by mcp-operations.spec.ts; do not edit.\n';
      writeFileSync(GENERATED, `${header}export const GENERATED_MCP_OPERATIONS = ${JSON.stringify(expected, null, 2)};\n`);
    }
    expect(MCP_OPERATIONS).toEqual(expected);
  });

  it('has 127 operations, 55 of them in the submitted profile, each tool name unique', () => {
    expect(MCP_OPERATIONS).toHaveLength(127);
    expect(MCP_OPERATIONS.filter((op) => op.submitted)).toHaveLength(55);
    expect(new Set(MCP_OPERATIONS.map((op) => op.toolName)).size).toBe(127);
  });

  it('names only the ten work profiles as toolsets', () => {
    const used = new Set(MCP_OPERATIONS.flatMap((op) => op.toolsets));
    expect([...used].sort()).toEqual([...MCP_TOOLSETS].sort());
  });
});
