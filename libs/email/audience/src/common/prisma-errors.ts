/** Prisma's code for a unique constraint violation. */
export const isUniqueViolation = (error: unknown): boolean => (error as { code?: string })?.code === 'P2002';

/** Prisma's code for an update or delete whose row is gone (deleted by a concurrent request). */
export const isRecordGone = (error: unknown): boolean => (error as { code?: string })?.code === 'P2025';
