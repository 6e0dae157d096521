import { Global, Module } from '@nestjs/common';
import { FormsPrisma } from './forms-prisma.service';
import { FormsSql } from './forms-sql.service';

@Global()
@Module({ providers: [FormsPrisma, FormsSql], exports: [FormsPrisma, FormsSql] })
export class FormsDataAccessModule {}
