import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { API_RESOURCE_GROUPS, isPlatformPath, resourceGroupFor, versionedSegment } from './api-resources';

const CONTRACT_OPERATIONS = path.resolve(__dirname, '../../../../../shared/spec/email-operations.json');

describe('API resource groups', () => {
  it('reads the first segment after /v1', () => {
    expect(versionedSegment('/v1')).toBe('');
    expect(versionedSegment('/v1/subscribers/{id}/tags')).toBe('subscribers');
    expect(versionedSegment('/v12/x')).toBeUndefined();
    expect(versionedSegment('/llms.txt')).toBeUndefined();
  });

  it('recognises exactly the three platform paths', () => {
    expect(['/v1', '/v1/capabilities', '/v1/openapi.json'].map(isPlatformPath)).toEqual([true, true, true]);
    expect(['/v1/workspace', '/v1/capabilities/x', '/llms.txt'].map(isPlatformPath)).toEqual([false, false, false]);
  });

  it('has 19 groups with unique keys and segments; setup sessions belong to delivery connections', () => {
    expect(API_RESOURCE_GROUPS).toHaveLength(19);
    expect(new Set(API_RESOURCE_GROUPS.map((g) => g.key)).size).toBe(19);
    expect(resourceGroupFor('/v1/email-delivery-connection-setup-sessions/{id}').key).toBe('email_delivery_connections');
    expect(resourceGroupFor('/v1/forms/{form_id}/submissions').key).toBe('forms');
    expect(resourceGroupFor('/v1/jobs/subscriber-imports').name).toBe('Import and Export Jobs');
  });

  it('names a group for a path outside the catalogue instead of hiding it', () => {
    expect(resourceGroupFor('/v1/new-things/{id}')).toMatchObject({ key: 'new_things', name: 'New Things' });
  });

  it(`puts every contract operation in its namespace (reads ${CONTRACT_OPERATIONS}, which development and CI have beside the repository)`, () => {
    if (!existsSync(CONTRACT_OPERATIONS)) throw new Error(`contract operation list not found at ${CONTRACT_OPERATIONS}`);
    const groups = JSON.parse(readFileSync(CONTRACT_OPERATIONS, 'utf8')) as Array<{
      namespace: string;
      name: string;
      operations: Array<{ operation_id: string; path: string }>;
    }>;
    const published = groups.filter((g) => g.namespace !== 'discovery');
    expect(API_RESOURCE_GROUPS.map((g) => [g.key, g.name])).toEqual(published.map((g) => [g.namespace, g.name]));
    for (const group of groups) {
      for (const op of group.operations) {
        if (group.namespace === 'discovery') expect(isPlatformPath(op.path)).toBe(true);
        else expect({ op: op.operation_id, key: resourceGroupFor(op.path).key }).toEqual({ op: op.operation_id, key: group.namespace });
      }
    }
  });
});
