import { Module } from '@nestjs/common';
import { AuthChangesModule } from '@shared/auth';
import { DraftEditor } from './draft-editor.service';
import { FormsRepository } from './forms.repository';
import { FormsService } from './forms.service';
import { PublishedForms } from './published-forms';
import { WorkspaceAccess } from './workspace-access';

@Module({
  imports: [AuthChangesModule],
  providers: [FormsRepository, FormsService, DraftEditor, PublishedForms, WorkspaceAccess],
  exports: [FormsService, DraftEditor, PublishedForms, WorkspaceAccess],
})
export class FormsModule {}
