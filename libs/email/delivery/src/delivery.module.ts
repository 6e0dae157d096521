import { Module } from '@nestjs/common';
import { cursorCodecProvider } from '@shared/pagination';
import { SenderIdentityRepository } from './sender-identity.repository';
import { SenderIdentityService } from './sender-identity.service';

@Module({ providers: [cursorCodecProvider, SenderIdentityRepository, SenderIdentityService], exports: [SenderIdentityService] })
export class EmailDeliveryModule {}
