declare const workspaceIdBrand: unique symbol;

/**
 * A workspace id that came from a checked source: the request's credential (email) or the caller's membership
 * (forms). Repositories take one first, so a raw id from a path or a body cannot reach a query unchecked.
 */
export type WorkspaceId = string & { readonly [workspaceIdBrand]: true };

/**
 * Brands an id as a workspace the caller may act in. Call it only where that was just established — the workspace
 * context resolvers, workers reading their own job payloads, and tests.
 */
export const trustedWorkspaceId = (id: string): WorkspaceId => id as WorkspaceId;

/** What every service resolves once per request and passes first to its use cases: the workspace the request acts in. */
export interface WorkspaceContext {
  readonly workspaceId: WorkspaceId;
}
