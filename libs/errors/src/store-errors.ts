/**
 * Recognises the data store's answers that repositories turn into domain errors. Both Prisma (P2002/P2025) and raw
 * `pg` (SQLSTATE 23505) errors are understood, so hand-written SQL and Prisma calls map constraints the same way.
 */
interface StoreError {
  code?: string;
  constraint?: string;
  detail?: string;
  meta?: unknown;
}

/**
 * Whether `error` is a unique violation; with `columns`, only one on an index covering each of them (matched in the
 * constraint name or the driver's description, which is where Prisma's driver adapter and pg report them).
 */
export function isUniqueViolation(error: unknown, ...columns: string[]): boolean {
  const { code, constraint, detail, meta } = (error ?? {}) as StoreError;
  if (code !== 'P2002' && code !== '23505') return false;
  const described = `${constraint ?? ''} ${detail ?? ''} ${JSON.stringify(meta ?? {})}`;
  return columns.every((column) => described.includes(column));
}

/** Prisma's answer to an update or delete whose row is gone (removed by a concurrent request). */
export const isRecordGone = (error: unknown): boolean => (error as StoreError | undefined)?.code === 'P2025';
