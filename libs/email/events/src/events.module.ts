import { Module } from '@nestjs/common';
import { Outbox } from './outbox';

@Module({ providers: [Outbox], exports: [Outbox] })
export class EmailEventsModule {}
