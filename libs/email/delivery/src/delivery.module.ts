import { Module } from '@nestjs/common';
import { cursorCodecProvider } from '@shared/pagination';
import { DeliveryConnectionRepository } from './delivery-connection.repository';
import { DeliveryConnectionStateService } from './delivery-connection-state.service';
import { SenderIdentityService } from './sender-identity.service';

@Module({
  providers: [cursorCodecProvider, DeliveryConnectionRepository, SenderIdentityService, DeliveryConnectionStateService],
  exports: [SenderIdentityService, DeliveryConnectionStateService],
})
export class EmailDeliveryModule {}
