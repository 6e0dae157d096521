import { Module } from '@nestjs/common';
import { Outbox } from './outbox.repository';

@Module({ providers: [Outbox], exports: [Outbox] })
export class EmailEventsModule {}
