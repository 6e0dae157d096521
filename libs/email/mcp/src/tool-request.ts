import { BODY_ARGUMENT, EmailMcpTool, IDEMPOTENCY_KEY_ARGUMENT } from './tools';

/** One in-process REST request a tool call makes. */
export interface RouteRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

export class ToolArgumentError extends Error {}

const scalar = (value: unknown): value is string | number | boolean => ['string', 'number', 'boolean'].includes(typeof value);

/** The REST request of a tool call (see ToolRoute for the mapping); throws ToolArgumentError for arguments it cannot place. */
export function toRouteRequest(tool: EmailMcpTool, args: Record<string, unknown>): RouteRequest {
  const { route } = tool;
  const used = new Set<string>();
  let path = route.path;
  for (const name of route.pathParams) {
    const value = args[name];
    if (!scalar(value) || value === '') throw new ToolArgumentError(`${name} is required.`);
    path = path.replace(`{${name}}`, encodeURIComponent(String(value)));
    used.add(name);
  }
  const query = new URLSearchParams();
  for (const name of route.queryParams) {
    const value = args[name];
    used.add(name);
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? (value as unknown[]) : [value]) {
      if (!scalar(item)) throw new ToolArgumentError(`${name} must be a string, number or boolean.`);
      query.append(name, String(item));
    }
  }
  const headers: Record<string, string> = {};
  if (route.idempotencyKey && args[IDEMPOTENCY_KEY_ARGUMENT] !== undefined) {
    const key = args[IDEMPOTENCY_KEY_ARGUMENT];
    if (typeof key !== 'string') throw new ToolArgumentError(`${IDEMPOTENCY_KEY_ARGUMENT} must be a string.`);
    headers['idempotency-key'] = key;
    used.add(IDEMPOTENCY_KEY_ARGUMENT);
  }
  let body: unknown;
  if (route.body === 'nested') {
    used.add(BODY_ARGUMENT);
    body = args[BODY_ARGUMENT];
  } else if (route.body === 'flat') {
    // Every other argument belongs to the body; the REST validation judges unknown or bad ones.
    const fields = Object.entries(args).filter(([name]) => !used.has(name));
    fields.forEach(([name]) => used.add(name));
    body = fields.length || route.bodyRequired ? Object.fromEntries(fields) : undefined;
  }
  const unknown = Object.keys(args).filter((name) => !used.has(name));
  if (unknown.length) throw new ToolArgumentError(`Unknown argument(s): ${unknown.join(', ')}.`);
  if (body !== undefined) headers['content-type'] = 'application/json';
  const search = query.toString();
  return { method: route.method, url: search ? `${path}?${search}` : path, headers, ...(body !== undefined ? { body } : {}) };
}
