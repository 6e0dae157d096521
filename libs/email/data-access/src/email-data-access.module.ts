import { Global, Module } from '@nestjs/common';
import { EmailPrisma } from './email-prisma.service';
import { EmailSql } from './email-sql.service';

@Global()
@Module({ providers: [EmailPrisma, EmailSql], exports: [EmailPrisma, EmailSql] })
export class EmailDataAccessModule {}
