export * from './email-prisma.service';
export * from './email-sql.service';
export * from './email-data-access.module';
export * from './generated/client';
