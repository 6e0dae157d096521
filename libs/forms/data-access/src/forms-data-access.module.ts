import { Global, Module } from '@nestjs/common';
import { FormsPrisma } from './forms-prisma.service';

@Global()
@Module({ providers: [FormsPrisma], exports: [FormsPrisma] })
export class FormsDataAccessModule {}
