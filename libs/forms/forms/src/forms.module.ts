import { Module } from '@nestjs/common';
import { DraftEditor } from './draft-editor.service';
import { FormsRepository } from './forms.repository';
import { FormsService } from './forms.service';
import { PublishedForms } from './published-forms';
import { WorkspaceAccess } from './workspace-access';

@Module({
  providers: [FormsRepository, FormsService, DraftEditor, PublishedForms, WorkspaceAccess],
  exports: [FormsService, DraftEditor, PublishedForms, WorkspaceAccess],
})
export class FormsModule {}
