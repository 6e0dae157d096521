import { DomainError, ERROR_STATUS, ErrorDetails, ErrorType } from './domain-error';

/** One code a service can return: the envelope `type`, the HTTP status, and what it means (for the error reference). */
export interface ErrorCodeEntry {
  type: ErrorType;
  status: number;
  description: string;
}

type EntryInput = Omit<ErrorCodeEntry, 'status'> & { status?: number };

/** A service's closed list of error codes; the status defaults to the one of the code's type. */
export function defineErrorCodes<const R extends Record<string, EntryInput>>(codes: R): { readonly [K in keyof R]: ErrorCodeEntry } {
  return Object.fromEntries(Object.entries(codes).map(([code, entry]) => [code, { ...entry, status: entry.status ?? ERROR_STATUS[entry.type] }])) as {
    readonly [K in keyof R]: ErrorCodeEntry;
  };
}

export type ErrorRegistry = Readonly<Record<string, ErrorCodeEntry>>;

/** The resource types `R` lists a `<type>_not_found` code for. */
export type NotFoundResource<R extends ErrorRegistry> = { [K in keyof R & string]: K extends `${infer T}_not_found` ? T : never }[keyof R & string];

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
  return {
    fail,
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
    .map(([code, { type, status, description }]) => `| \`${code}\` | ${status} | \`${type}\` | ${description.replace(/\|/g, '\\|')} |`);
  return [
    `# ${title}`,
    '',
    '<!-- Generated from the service\'s error registry; regenerate with `UPDATE_ERROR_DOCS=1 npm run test:unit -- error-reference`. -->',
    '',
    intro,
    '',
    '| code | HTTP status | type | meaning |',
    '|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
