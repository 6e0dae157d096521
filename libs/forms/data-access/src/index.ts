export * from './forms-prisma.service';
export * from './forms-sql.service';
export * from './forms-data-access.module';
export * from './generated/client';
