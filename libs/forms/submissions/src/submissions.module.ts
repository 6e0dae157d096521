import { Module } from '@nestjs/common';
import { SubmissionsRepository } from './submissions.repository';
import { SubmissionsService } from './submissions.service';
import { UploadsService } from './uploads.service';

@Module({
  providers: [SubmissionsRepository, SubmissionsService, UploadsService],
  exports: [SubmissionsService, UploadsService],
})
export class SubmissionsModule {}
