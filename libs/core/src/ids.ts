import { Global, Injectable, Module } from '@nestjs/common';
import { monotonicFactory } from 'ulid';

/** Makes record ids: a stable type prefix + a ULID (time-ordered, so ids sort by creation). */
@Injectable()
export class IdGenerator {
  private readonly next = monotonicFactory();

  newId(prefix: string): string {
    return `${prefix}_${this.next()}`;
  }
}

/** The current time, injectable so tests can pin it. */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }
}

@Global()
@Module({ providers: [IdGenerator, Clock], exports: [IdGenerator, Clock] })
export class CoreModule {}
