import { DomainError, ERROR_STATUS, ErrorDetails, ErrorType } from './domain-error';

/** A second type (and status) a code is answered with, in the one situation `when` names. */
export interface ErrorVariant {
  type: ErrorType;
  status?: number;
  when: string;
}

/** One code a service can return: the envelope `type`, the HTTP status, and what it means (for the error reference). */
export interface ErrorCodeEntry {
  type: ErrorType;
  status: number;
  description: string;
  also?: ErrorVariant;
}

type EntryInput = Omit<ErrorCodeEntry, 'status'> & { status?: number };

/** A service's closed list of error codes; the status defaults to the one of the code's type. */
export function defineErrorCodes<const R extends Record<string, EntryInput>>(codes: R): { readonly [K in keyof R]: R[K] & ErrorCodeEntry } {
  return Object.fromEntries(Object.entries(codes).map(([code, entry]) => [code, { ...entry, status: entry.status ?? ERROR_STATUS[entry.type] }])) as {
    readonly [K in keyof R]: R[K] & ErrorCodeEntry;
  };
}

export type ErrorRegistry = Readonly<Record<string, ErrorCodeEntry>>;

/** The resource types `R` lists a `<type>_not_found` code for. */
export type NotFoundResource<R extends ErrorRegistry> = { [K in keyof R & string]: K extends `${infer T}_not_found` ? T : never }[keyof R & string];

/** The codes of `R` that list `type` as their second type. */
export type CodesAlsoAnswering<R extends ErrorRegistry, T extends ErrorType> = {
  [K in keyof R & string]: R[K] extends { also: { type: T } } ? K : never;
}[keyof R & string];

export interface ErrorOptions {
  details?: ErrorDetails;
  /** Envelope members beyond type/code/message/details. */
  extra?: Record<string, unknown>;
  headers?: Record<string, string>;
}

/**
 * Error constructors that accept only the codes of `registry`, taking each code's type and status from it, so a
 * service cannot return a code its error reference does not list.
 */
export function errorFactory<R extends ErrorRegistry>(registry: R) {
  const fail = (code: keyof R & string, message: string, options: ErrorOptions = {}): DomainError => {
    const entry = registry[code];
    if (!entry) throw new Error(`${code} is not in the error registry`);
    return new DomainError(entry.type, code, message, options.details, options.extra, entry.status, options.headers);
  };
  /** The code as its listed second type, e.g. a draft problem answered as a 409 conflict instead of a 400. */
  const failAs = <T extends ErrorType>(type: T, code: CodesAlsoAnswering<R, T>, message: string, options: ErrorOptions = {}): DomainError => {
    const variant = registry[code]?.also;
    if (variant?.type !== type) throw new Error(`${code} is not listed as answering ${type}`);
    return new DomainError(type, code, message, options.details, options.extra, variant.status ?? ERROR_STATUS[type], options.headers);
  };
  return {
    fail,
    failAs,
    /** A 4xx about one request field. */
    invalid: (code: keyof R & string, message: string, field?: string, reason?: string) =>
      fail(code, message, field || reason ? { details: { ...(field ? { field } : {}), ...(reason ? { reason } : {}) } } : {}),
    notFound: (resourceType: NotFoundResource<R>, id: string) =>
      fail(`${resourceType}_not_found` as keyof R & string, `No ${resourceType.replace(/_/g, ' ')} with id "${id}" was found.`, {
        details: { resource: { type: resourceType, id } },
      }),
  };
}

/** The error reference page for `registry`, as docs/ holds it (generated; a test fails when the file drifts). */
export function renderErrorReference(title: string, intro: string, registry: ErrorRegistry): string {
  const rows = Object.entries(registry)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([code, { type, status, description, also }]) => {
      const statuses = also ? `${status}, ${also.status ?? ERROR_STATUS[also.type]}` : `${status}`;
      const types = also ? `\`${type}\`, \`${also.type}\`` : `\`${type}\``;
      const meaning = also ? `${description} As \`${also.type}\` when ${also.when}` : description;
      return `| \`${code}\` | ${statuses} | ${types} | ${meaning.replace(/\|/g, '\\|')} |`;
    });
  return [
    `# ${title}`,
    '',
    "<!-- Generated from the service's error registry; regenerate with `UPDATE_ERROR_DOCS=1 npm run test:unit -- error-reference`. -->",
    '',
    intro,
    '',
    '| code | HTTP status | type | meaning |',
    '|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
