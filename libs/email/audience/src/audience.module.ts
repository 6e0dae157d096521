import { Module } from '@nestjs/common';
import { EmailEventsModule } from '@email/events';
import { SegmentCountingModule } from '@email/audience-engine';
import { cursorCodecProvider } from '@shared/pagination';
import { CustomFieldRepository } from './custom-fields/custom-field.repository';
import { CustomFieldService } from './custom-fields/custom-field.service';
import { SubscriberRepository } from './subscribers/subscriber.repository';
import { SubscriberService } from './subscribers/subscriber.service';
import { SubscriberStore } from './subscribers/subscriber.store';
import { TagRepository } from './tags/tag.repository';
import { TagService } from './tags/tag.service';

/** Subscribers, tags and custom fields: the workspace's audience. */
@Module({
  imports: [EmailEventsModule, SegmentCountingModule],
  providers: [
    cursorCodecProvider,
    TagRepository,
    TagService,
    CustomFieldRepository,
    CustomFieldService,
    SubscriberRepository,
    { provide: SubscriberStore, useExisting: SubscriberRepository },
    SubscriberService,
  ],
  exports: [TagService, TagRepository, CustomFieldService, SubscriberService],
})
export class EmailAudienceModule {}
