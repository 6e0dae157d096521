import { Module } from '@nestjs/common';
import { FormsModule } from '@forms/forms';
import { PublicLimits } from './public-limits';
import { RequestLimiter } from './request-limiter';
import { SubmissionsRepository } from './submissions.repository';
import { SubmissionsService } from './submissions.service';
import { uploadStorageProvider } from './upload-storage';
import { UploadsService } from './uploads.service';

@Module({
  imports: [FormsModule],
  providers: [SubmissionsRepository, SubmissionsService, UploadsService, RequestLimiter, PublicLimits, uploadStorageProvider],
  exports: [SubmissionsService, UploadsService, RequestLimiter, PublicLimits],
})
export class SubmissionsModule {}
