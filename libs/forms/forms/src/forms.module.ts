import { Module } from '@nestjs/common';
import { AuthChangesModule } from '@shared/auth';
import { DraftEditor } from './draft-editor.service';
import { FormStarts } from './form-starts.service';
import { FormWorkspaceGuard } from './form-workspace.guard';
import { FormsRepository } from './forms.repository';
import { FormsService } from './forms.service';
import { MembershipsRepository } from './memberships.repository';
import { PublishedForms } from './published-forms';
import { PublishedFormsRepository } from './published-forms.repository';
import { WorkspaceAccess } from './workspace-access';
import { WorkspaceContextResolver } from './workspace-context';

@Module({
  imports: [AuthChangesModule],
  providers: [
    FormsRepository,
    MembershipsRepository,
    PublishedFormsRepository,
    FormsService,
    DraftEditor,
    PublishedForms,
    WorkspaceAccess,
    WorkspaceContextResolver,
    FormWorkspaceGuard,
    FormStarts,
  ],
  exports: [FormStarts, FormsService, DraftEditor, PublishedForms, WorkspaceContextResolver, FormWorkspaceGuard],
})
export class FormsModule {}
