import { Module } from '@nestjs/common';
import { FormsModule } from '@forms/forms';
import { SubmissionsRepository } from './submissions.repository';
import { SubmissionsService } from './submissions.service';
import { UploadsService } from './uploads.service';

@Module({
  imports: [FormsModule],
  providers: [SubmissionsRepository, SubmissionsService, UploadsService],
  exports: [SubmissionsService, UploadsService],
})
export class SubmissionsModule {}
