import { Global, Module } from '@nestjs/common';
import { EmailPrisma } from './email-prisma.service';

@Global()
@Module({ providers: [EmailPrisma], exports: [EmailPrisma] })
export class EmailDataAccessModule {}
