import { EmailErrorCode } from '@email/contracts';

/**
 * A feature the API metadata and capabilities name that this server does not offer yet. Until it exists, its routes
 * answer 501 with `code` (not a 404), and the capabilities document lists it under `limitations`.
 */
export interface UnavailableFeature {
  code: EmailErrorCode;
  /** What people call it (the documentation's list of what is not offered yet). */
  title: string;
  /** Said both in the 501 body and in the capabilities limitation. */
  message: string;
  /** Routes of this server that belong to the feature (Nest path syntax). */
  paths: readonly string[];
  /** The contract operations the feature adds, with the scopes each needs. */
  operations: ReadonlyArray<{ operationId: string; requiredScopes: readonly string[] }>;
}

/** Empty while every advertised feature is offered; a feature added to the metadata before it works is listed here. */
export const UNAVAILABLE_FEATURES: readonly UnavailableFeature[] = [];
