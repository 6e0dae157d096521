export * from './workspace.dto';
export * from './workspace.service';
export * from './workspace.module';
