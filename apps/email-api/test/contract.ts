/** The shared email contract's operation table, read for tests (a missing spec file fails the test loudly). */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { EmailApiHarness } from './helpers';

export interface ContractOperation {
  operation_id: string;
  method: string;
  path: string;
  required_scopes: string[];
  auth_required: boolean;
  has_request_body: boolean;
  query_params?: unknown[];
}

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export const CONTRACT_OPERATIONS_FILE = path.resolve(__dirname, '../../../../shared/spec/email-operations.json');

/** Every operation of the contract; throws when the spec file is absent (CI and development both have it beside the repository). */
export function contractOperations(): ContractOperation[] {
  if (!existsSync(CONTRACT_OPERATIONS_FILE)) throw new Error(`contract operation list not found at ${CONTRACT_OPERATIONS_FILE}`);
  return (JSON.parse(readFileSync(CONTRACT_OPERATIONS_FILE, 'utf8')) as Array<{ operations: ContractOperation[] }>).flatMap((group) => group.operations);
}

/** The contract path with every `{param}` replaced by `value`. */
export const concretePath = (template: string, value = 'x_missing') => template.replace(/\{[^}]+\}/g, value);

export const methodOf = (op: ContractOperation) => op.method.toLowerCase() as HttpMethod;

/** The answer of a path with no operation behind it: the router's own 404, or the 501 of a feature not offered yet. */
export const isUnserved = (res: { status: number; body: { error?: { code?: string } } }): boolean =>
  (res.status === 404 && res.body.error?.code === 'route_not_found') || (res.status === 501 && /_not_available$/.test(res.body.error?.code ?? ''));

/** Whether the app serves the operation: anything but an unserved answer means a route exists. */
export async function isImplemented(h: EmailApiHarness, op: ContractOperation): Promise<boolean> {
  return !isUnserved(await h.as('').request(methodOf(op), concretePath(op.path)));
}
