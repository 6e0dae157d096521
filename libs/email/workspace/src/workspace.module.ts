import { Module } from '@nestjs/common';
import { WorkspaceRepository } from './workspace.repository';
import { WorkspaceService } from './workspace.service';

@Module({ providers: [WorkspaceRepository, WorkspaceService], exports: [WorkspaceService] })
export class EmailWorkspaceModule {}
